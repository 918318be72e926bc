//! The program's answer as the call's output or failure: its JSON-RPC response, its exit
//! status and its stderr.

use std::fmt::Write as _;
use std::process::ExitStatus;

use serde_json::{Value, json};

use crate::failure::{Classification, FailureKind, ToolFailure};

/// What was read from a pipe, up to a bound.
pub(super) struct Captured {
    pub(super) bytes: Vec<u8>,
    /// More than the bound arrived.
    pub(super) overflowed: bool,
    /// How many bytes past the bound were dropped (stderr keeps draining).
    pub(super) dropped: usize,
}

/// The stderr text for an error message: `; stderr: …` or nothing.
fn stderr_note(err: &Captured) -> String {
    let text = String::from_utf8_lossy(&err.bytes);
    let text = text.trim();
    if text.is_empty() {
        return String::new();
    }
    let mut note = format!("; stderr: {text}");
    if err.dropped > 0 {
        let _ = write!(note, " … ({} more bytes)", err.dropped);
    }
    note
}

fn preview(bytes: &[u8]) -> String {
    const MAX: usize = 200;
    let text = String::from_utf8_lossy(&bytes[..bytes.len().min(MAX)]).into_owned();
    if bytes.len() > MAX {
        format!("{text}…")
    } else {
        text
    }
}

fn protocol_failure(message: String) -> ToolFailure {
    ToolFailure::ordinary(message).with_code("subprocess_protocol")
}

/// Reads the program's answer.
pub(super) fn parse_response(
    name: &str,
    id: u64,
    max_stdout: usize,
    status: ExitStatus,
    out: &Captured,
    err: &Captured,
) -> Result<Value, ToolFailure> {
    let stderr = stderr_note(err);
    if out.overflowed {
        return Err(protocol_failure(format!(
            "subprocess tool `{name}` wrote more than {max_stdout} bytes to stdout{stderr}"
        )));
    }
    let text = out.bytes.trim_ascii();
    if text.is_empty() {
        let message = if status.success() {
            format!("subprocess tool `{name}` exited without a response on stdout{stderr}")
        } else {
            format!("subprocess tool `{name}` exited with {status}{stderr}")
        };
        return Err(ToolFailure::ordinary(message).with_code("subprocess_exit"));
    }
    let response: Value = serde_json::from_slice(text).map_err(|e| {
        protocol_failure(format!(
            "invalid JSON-RPC response from subprocess tool `{name}`: {e} (stdout: {}){stderr}",
            preview(text)
        ))
    })?;
    let not_rpc = |what: &str| {
        protocol_failure(format!(
            "invalid JSON-RPC response from subprocess tool `{name}`: {what} (stdout: {}){stderr}",
            preview(text)
        ))
    };
    if response.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return Err(not_rpc("`jsonrpc` is not \"2.0\""));
    }
    match response.get("id") {
        Some(got) if *got != json!(id) && !got.is_null() => {
            return Err(not_rpc(&format!("`id` is {got}, expected {id}")));
        }
        _ => {}
    }
    if let Some(error) = response.get("error") {
        return Err(tool_error(name, error));
    }
    match response.get("result") {
        Some(result) => Ok(result.clone()),
        None => Err(not_rpc("neither `result` nor `error`")),
    }
}

/// The program's JSON-RPC error as a failure.
fn tool_error(name: &str, error: &Value) -> ToolFailure {
    let message = error.get("message").and_then(Value::as_str).map_or_else(
        || format!("subprocess tool `{name}` failed: {error}"),
        str::to_owned,
    );
    let mut failure = match error.get("code").and_then(Value::as_i64) {
        Some(-32602) => ToolFailure::invalid_arguments(message),
        _ => ToolFailure::ordinary(message).with_code("subprocess_error"),
    };
    let data = error.get("data");
    if data
        .and_then(|d| d.get("classification"))
        .and_then(Value::as_str)
        == Some("terminal")
    {
        failure = failure.with_classification(Classification::Terminal);
    }
    if let Some(code) = data.and_then(|d| d.get("code")).and_then(Value::as_str) {
        failure = failure.with_code(code.to_owned());
    }
    if let Some(data) = data
        && failure.kind() == FailureKind::Tool
    {
        failure = failure.with_data(data.clone());
    }
    failure
}
