//! `ToolStreamChunk`: what a streamed call sends, in the seed system's wire shape.

use serde::{Deserialize, Serialize};
use serde_json::Value;

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
    /// Terminal: the call failed.
    Error {
        /// The failure's message (redacted failures send the fixed text).
        message: String,
    },
}

impl ToolStreamChunk {
    /// `Done` or `Error`.
    #[must_use]
    pub const fn is_terminal(&self) -> bool {
        matches!(self, Self::Done { .. } | Self::Error { .. })
    }
}
