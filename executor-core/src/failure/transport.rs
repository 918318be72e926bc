//! One failure table for every transport: what a [`ToolFailure`] becomes for a retrying caller,
//! for MCP, for A2A and for the seed system's `Result<Value, String>` layers.
//!
//! | failure | retrying caller | MCP | A2A | seed string layers |
//! |---|---|---|---|---|
//! | ordinary | retry (after the hint) | `isError: true` result | `Failed`, class `transient` | the message |
//! | terminal | stop | `isError: true` result | `Failed`, class `internal` | the message |
//! | unhandled | try the fallback | JSON-RPC error -32602 | `Failed`, class `invalid_request` | the message |
//! | kind `invalid_arguments` | retry (the model can fix them) | `isError: true` result | `Failed`, class `invalid_request` | the message |
//! | kind `unknown_tool` | try the fallback | JSON-RPC error -32602 | `Failed`, class `invalid_request` | the message |
//! | kind `timeout` | retry | `isError: true` result | `Failed`, class `budget_exhausted` | the message |
//! | kind `cancelled` | stop | `isError: true` result | `Canceled` | the message |
//! | redacted | as its class | the fixed message | the fixed message | the fixed message |
//!
//! The functions return transport-neutral values; the `mcp` and `a2a` modules turn them into
//! their protocol types.

use std::time::Duration;

use serde_json::Value;

use super::{Classification, FailureKind, ToolFailure};

/// What a retrying caller should do after a failed attempt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RetryDecision {
    /// Try again, after the hint if the tool gave one.
    Retry {
        /// The tool's retry hint.
        after: Option<Duration>,
    },
    /// Do not retry: the failure is terminal.
    Stop,
    /// The executor did not serve the call; a fallback executor may.
    Fallback,
}

/// The retrying caller's row of the table.
#[must_use]
pub fn for_retry(failure: &ToolFailure) -> RetryDecision {
    if failure.is_unhandled() {
        RetryDecision::Fallback
    } else if failure.is_terminal() {
        RetryDecision::Stop
    } else {
        RetryDecision::Retry {
            after: failure.retry_after(),
        }
    }
}

/// How a failure reaches an MCP client.
#[derive(Debug, Clone, PartialEq)]
pub enum McpOutcome {
    /// A `tools/call` result with `isError: true`: the model reads `text` and can act on it.
    ToolError {
        /// The text block (the failure's message; the fixed text when redacted).
        text: String,
        /// `structuredContent`: `{"code", "kind", "classification", "retry_after_ms"?, "data"?}`.
        structured: Value,
    },
    /// A JSON-RPC error: the request itself was wrong (unknown tool).
    ProtocolError {
        /// The JSON-RPC error code.
        code: i32,
        /// The error message.
        message: String,
    },
}

/// JSON-RPC "invalid params", which MCP uses for an unknown tool.
pub const JSONRPC_INVALID_PARAMS: i32 = -32602;

/// The MCP row of the table.
#[must_use]
pub fn for_mcp(failure: &ToolFailure) -> McpOutcome {
    if failure.is_unhandled() || failure.kind() == FailureKind::UnknownTool {
        return McpOutcome::ProtocolError {
            code: JSONRPC_INVALID_PARAMS,
            message: failure.message().to_owned(),
        };
    }
    let mut structured = serde_json::Map::new();
    structured.insert("code".into(), failure.code().into());
    structured.insert("kind".into(), failure.kind().as_str().into());
    let class = match failure.classification() {
        Classification::Ordinary => "ordinary",
        Classification::Terminal => "terminal",
    };
    structured.insert("classification".into(), class.into());
    if let Some(after) = failure.retry_after() {
        structured.insert(
            "retry_after_ms".into(),
            u64::try_from(after.as_millis()).unwrap_or(u64::MAX).into(),
        );
    }
    if let Some(data) = failure.data() {
        structured.insert("data".into(), data.clone());
    }
    McpOutcome::ToolError {
        text: failure.message().to_owned(),
        structured: Value::Object(structured),
    }
}

/// A2A's failure classes (`a2a_protocol_types::FailureClass`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum A2aFailureClass {
    /// The request was wrong: bad arguments, unknown tool.
    InvalidRequest,
    /// Worth retrying.
    Transient,
    /// Refused by policy.
    PolicyRefusal,
    /// Ran out of time or budget.
    BudgetExhausted,
    /// Must not be retried.
    Internal,
}

/// The terminal task state an A2A failure ends in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum A2aTerminal {
    /// `TASK_STATE_FAILED` with a failure class.
    Failed(A2aFailureClass),
    /// `TASK_STATE_CANCELED`.
    Canceled,
}

/// How a failure ends an A2A task.
#[derive(Debug, Clone, PartialEq)]
pub struct A2aOutcome {
    /// The terminal state.
    pub terminal: A2aTerminal,
    /// The status message text.
    pub message: String,
    /// The failure's code, for the status metadata.
    pub code: String,
}

/// The A2A row of the table.
#[must_use]
pub fn for_a2a(failure: &ToolFailure) -> A2aOutcome {
    let terminal = match failure.kind() {
        FailureKind::Cancelled => A2aTerminal::Canceled,
        FailureKind::InvalidArguments | FailureKind::UnknownTool => {
            A2aTerminal::Failed(A2aFailureClass::InvalidRequest)
        }
        FailureKind::Timeout => A2aTerminal::Failed(A2aFailureClass::BudgetExhausted),
        _ if failure.is_unhandled() => A2aTerminal::Failed(A2aFailureClass::InvalidRequest),
        _ if failure.is_terminal() => A2aTerminal::Failed(A2aFailureClass::Internal),
        _ => A2aTerminal::Failed(A2aFailureClass::Transient),
    };
    A2aOutcome {
        terminal,
        message: failure.message().to_owned(),
        code: failure.code().to_owned(),
    }
}

/// The seed's string layers: the message a model may read.
#[must_use]
pub fn for_seed(failure: &ToolFailure) -> String {
    failure.message().to_owned()
}
