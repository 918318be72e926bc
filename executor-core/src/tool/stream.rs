//! `ToolStreamChunk`: what a streamed call sends, in the seed system's wire shape.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::failure::Classification;

/// How many chunks a stream buffers before the tool waits for the reader (backpressure).
///
/// A tool that reports progress faster than its reader drains it is slowed down rather than
/// allowed to grow memory without bound.
pub const STREAM_CAPACITY: usize = 64;

/// One chunk of a streamed tool call. Serialized with a `kind` tag, `snake_case`:
/// `{"kind":"progress","fraction":0.5,"message":null}`.
///
/// A stream ends with exactly one terminal chunk ([`Done`](Self::Done) or
/// [`Error`](Self::Error)).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ToolStreamChunk {
    /// Free text output.
    Text {
        /// The text.
        text: String,
    },
    /// Structured partial output.
    Data {
        /// The data.
        data: Value,
    },
    /// Progress between 0.0 and 1.0.
    Progress {
        /// How far along, from 0.0 to 1.0.
        fraction: f64,
        /// What is happening.
        message: Option<String>,
    },
    /// Terminal: the call succeeded.
    Done {
        /// The tool's return value.
        result: Option<Value>,
    },
    /// Terminal: the call failed. Beside the seed's `message`, the failure's code, class and
    /// retry hint, so a streaming caller can decide whether to retry (additive: the seed's
    /// `{"kind":"error","message":…}` still parses, with each of them `None`). Built by
    /// [`for_stream`](crate::failure::transport::for_stream).
    Error {
        /// The failure's message (redacted failures send the fixed text).
        message: String,
        /// The failure's stable code.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        code: Option<String>,
        /// Ordinary (may be retried) or terminal (must not be).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        classification: Option<Classification>,
        /// How long to wait before retrying, in milliseconds, if the tool said.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        retry_after_ms: Option<u64>,
    },
}

impl ToolStreamChunk {
    /// `Done` or `Error`.
    #[must_use]
    pub const fn is_terminal(&self) -> bool {
        matches!(self, Self::Done { .. } | Self::Error { .. })
    }
}

/// The seed's refusal for an executor that does not stream.
pub(crate) fn stream_unsupported(tool: &str) -> String {
    format!("tool '{tool}': this executor does not support streaming/long-running invocation")
}
