//! What comes back from a `tools/call`, as the call's output or failure.

use rmcp::model::{CallToolResult, ErrorCode};
use rmcp::service::ServiceError;
use serde_json::Value;

use crate::failure::transport::{KindPolicy, restore};
use crate::failure::{Classification, FailureKind, ToolFailure};
use crate::mcp::convert::{FAILURE_META_KEY, RESULT_KEY};
use crate::tool::ToolExecution;

fn texts(result: &CallToolResult) -> Vec<&str> {
    result
        .content
        .iter()
        .filter_map(|c| c.as_text().map(|t| t.text.as_str()))
        .collect()
}

/// A `tools/call` result as an output or a failure.
pub(super) fn from_result(
    tool: &str,
    result: CallToolResult,
    unwrap: bool,
) -> Result<ToolExecution, ToolFailure> {
    if result.is_error == Some(true) {
        let details = result
            .meta
            .as_ref()
            .and_then(|meta| meta.0.get(FAILURE_META_KEY));
        let texts = texts(&result);
        // Our servers send the message, then the details as JSON: the message is the first.
        let text = match (details, texts.first()) {
            (Some(_), Some(first)) => (*first).to_owned(),
            _ => texts.join("\n"),
        };
        let text = if text.is_empty() {
            format!("tool `{tool}` returned isError with no text content")
        } else {
            text
        };
        return Err(relayed_failure(text, details));
    }
    let output = match result.structured_content {
        Some(Value::Object(mut map))
            if unwrap && map.len() == 1 && map.contains_key(RESULT_KEY) =>
        {
            map.remove(RESULT_KEY).unwrap_or_default()
        }
        Some(structured) => structured,
        None => {
            let texts = texts(&result);
            if texts.is_empty() {
                Value::Null
            } else {
                Value::String(texts.join("\n"))
            }
        }
    };
    Ok(ToolExecution::output_only(output))
}

/// An `isError` result as an ordinary failure. When the server is one of ours its `_meta`
/// carries the code and classification (`structured`), which are kept; a relayed failure is
/// never unhandled (car#3104).
fn relayed_failure(text: String, structured: Option<&Value>) -> ToolFailure {
    let failure = ToolFailure::ordinary(text).with_code("mcp_tool_error");
    let Some(structured) = structured else {
        return failure;
    };
    let failure = restore(failure, structured, KindPolicy::Relayed);
    if structured.get("classification").and_then(Value::as_str) == Some("terminal") {
        return failure.with_classification(Classification::Terminal);
    }
    failure
}

/// A protocol or transport error as a failure.
/// What went wrong, in words for a person: rmcp's transport type name left out of a send
/// failure, and the server's challenge added when a 401 or 403 refused the request.
pub(super) fn describe(error: &ServiceError) -> String {
    let text = error.to_string();
    let reason = match error {
        // rmcp prefixes the transport's type name; the reason follows "] error: ".
        ServiceError::TransportSend(_) => text
            .split_once("] error: ")
            .map_or(text.as_str(), |(_, r)| r),
        _ => text.as_str(),
    };
    #[cfg(feature = "mcp-http")]
    if let Some(challenge) = error.auth_challenge() {
        return format!("{reason} (the server's challenge: {challenge})");
    }
    reason.to_owned()
}

pub(super) fn from_service_error(tool: &str, server: &str, error: ServiceError) -> ToolFailure {
    match error {
        ServiceError::McpError(e) if e.code == ErrorCode::INVALID_PARAMS => {
            ToolFailure::invalid_arguments(format!("tool `{tool}`: {}", e.message))
        }
        ServiceError::McpError(e) => {
            ToolFailure::ordinary(format!("MCP error from `{server}`: {}", e.message))
                .with_kind(FailureKind::Internal)
                .with_code(format!("mcp_error_{}", e.code.0))
        }
        ServiceError::Timeout { timeout } => ToolFailure::timeout(tool, timeout),
        ServiceError::Cancelled { .. } => ToolFailure::cancelled(tool),
        // A 401 or 403 after the token was asked for again: the server refuses this caller,
        // which no retry or reconnection changes.
        #[cfg(feature = "mcp-http")]
        ServiceError::TransportSend(_) if error.auth_challenge().is_some() => {
            let challenge = error.auth_challenge().unwrap_or_default();
            let code = if challenge.contains("insufficient_scope") {
                "insufficient_scope"
            } else {
                "unauthorized"
            };
            ToolFailure::terminal(format!(
                "MCP server `{server}` refused `{tool}`: {}",
                describe(&error)
            ))
            .with_code(code)
            .with_data(serde_json::json!({ "challenge": challenge }))
        }
        ServiceError::TransportSend(_) => {
            let reason = describe(&error);
            ToolFailure::ordinary(format!(
                "could not send `{tool}` to MCP server `{server}`: {reason}"
            ))
            .with_kind(FailureKind::Internal)
            .with_code("mcp_transport")
        }
        ServiceError::TransportClosed => ToolFailure::ordinary(format!(
            "MCP server `{server}` closed the connection during `{tool}`"
        ))
        .with_kind(FailureKind::Internal)
        .with_code("mcp_transport"),
        other => ToolFailure::ordinary(format!("MCP server `{server}`: {other}"))
            .with_kind(FailureKind::Internal)
            .with_code("mcp_protocol"),
    }
}
