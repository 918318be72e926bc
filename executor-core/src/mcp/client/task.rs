//! Following a task the server answered a call with (the MCP tasks extension, 2026-07-28):
//! `tasks/get` at the server's `pollIntervalMs` until the task ends, its status messages passed
//! to the call's context as progress, `tasks/cancel` if the caller stops waiting. The caller
//! sees the task's result as if the call had answered directly. The call's own deadline
//! bounds the polling (the executor's `drive` drops this future when it passes).

use std::time::Duration;

use rmcp::model::{
    CallToolResult, CancelTaskParams, CreateTaskResult, ErrorData, GetTaskParams, TaskPayload,
};
use rmcp::service::{Peer, RoleClient, ServiceError};
use serde_json::Value;

use crate::tool::ToolContext;
use crate::transport::cancel::CancelOnDrop;

/// The poll interval when the server suggests none.
const DEFAULT_POLL: Duration = Duration::from_secs(1);

/// The bounds put on the server's suggested poll interval: no busier than 10 ms, and no
/// lazier than 30 s, whatever it says.
const POLL_BOUNDS: (Duration, Duration) = (Duration::from_millis(10), Duration::from_secs(30));

/// Polls `created` until it ends; its result, or the error a direct call would have had.
pub(super) async fn follow(
    peer: &Peer<RoleClient>,
    created: CreateTaskResult,
    ctx: &ToolContext,
) -> Result<CallToolResult, ServiceError> {
    let id = created.task.task_id;
    let mut guard = CancelOnDrop::armed(cancel(peer.clone(), id.clone()));
    let mut poll = interval(created.task.poll_interval_ms);
    let mut message = created.task.status_message;
    if let Some(text) = &message {
        ctx.progress(0.0, Some(text.clone())).await;
    }
    loop {
        tokio::time::sleep(poll).await;
        let task = peer.get_task(GetTaskParams::new(id.clone())).await?.task;
        if task.task.status_message.is_some() && task.task.status_message != message {
            message.clone_from(&task.task.status_message);
            ctx.progress(0.0, message.clone()).await;
        }
        poll = interval(task.task.poll_interval_ms);
        let outcome = match task.payload {
            TaskPayload::Working => continue,
            TaskPayload::Completed { result } => serde_json::from_value(Value::Object(result))
                .map_err(|e| malformed(&format!("its result is not a tool result: {e}"))),
            TaskPayload::Failed { error } => Err(ServiceError::McpError(
                serde_json::from_value::<ErrorData>(Value::Object(error))
                    .unwrap_or_else(|e| malformed_error(&format!("its error is malformed: {e}"))),
            )),
            TaskPayload::Cancelled => Err(ServiceError::Cancelled {
                reason: Some(format!("the server cancelled task {id}")),
            }),
            // Answering input requests is the elicitation work's; until then the task is
            // cancelled (the guard still fires) rather than left waiting for nobody.
            TaskPayload::InputRequired { .. } => {
                return Err(malformed(
                    "it asks for input (input_required), which this client does not answer",
                ));
            }
            _ => Err(malformed("its status is unknown to this client")),
        };
        guard.disarm();
        return outcome;
    }
}

/// The server's suggested interval, within [`POLL_BOUNDS`].
fn interval(suggested: Option<u64>) -> Duration {
    suggested
        .map_or(DEFAULT_POLL, Duration::from_millis)
        .clamp(POLL_BOUNDS.0, POLL_BOUNDS.1)
}

fn malformed_error(why: &str) -> ErrorData {
    ErrorData::internal_error(format!("the server's task failed: {why}"), None)
}

fn malformed(why: &str) -> ServiceError {
    ServiceError::McpError(ErrorData::internal_error(
        format!("the server's task cannot be followed: {why}"),
        None,
    ))
}

/// Sends `tasks/cancel` for a task whose caller stopped waiting.
async fn cancel(peer: Peer<RoleClient>, id: String) {
    // A closed connection, or a task already gone, has nothing left to cancel.
    let _ = peer.cancel_task(CancelTaskParams::new(id)).await;
}
