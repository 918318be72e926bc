//! Following a task the server answered a call with (the MCP tasks extension, 2026-07-28):
//! `tasks/get` at the server's `pollIntervalMs` until the task ends, its status messages passed
//! to the call's context as progress, `tasks/cancel` if the caller stops waiting. The caller
//! sees the task's result as if the call had answered directly. The call's own deadline
//! bounds the polling (the executor's `drive` drops this future when it passes). A task that
//! asks (`input_required`) has its questions put to the caller's own user (the call's context
//! can ask: a question travels on to whoever called us) or else to the client's elicitor
//! (`McpServerConfig::with_elicitor`), and the answers go back with `tasks/update`.

use std::collections::HashSet;
use std::time::Duration;

use rmcp::model::{
    CallToolResult, CancelTaskParams, CreateTaskResult, ErrorData, GetTaskParams, InputRequest,
    InputRequests, InputResponses, TaskPayload, UpdateTaskParams,
};
use rmcp::service::{Peer, RoleClient, ServiceError};
use serde_json::Value;

use super::config::Elicitor;
use crate::elicit::ElicitError;
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
    elicitor: Option<&Elicitor>,
) -> Result<CallToolResult, ServiceError> {
    let id = created.task.task_id;
    let mut guard = CancelOnDrop::armed(cancel(peer.clone(), id.clone()));
    let mut poll = interval(created.task.poll_interval_ms);
    let mut message = created.task.status_message;
    // The questions answered already: the server may show one a poll longer while the
    // answer reaches the process that runs the task.
    let mut answered = HashSet::new();
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
            TaskPayload::InputRequired { input_requests } => {
                let responses = answer(&input_requests, &mut answered, ctx, elicitor).await?;
                if !responses.is_empty() {
                    peer.update_task(UpdateTaskParams::new(id.clone(), responses))
                        .await?;
                }
                continue;
            }
            _ => Err(malformed("its status is unknown to this client")),
        };
        guard.disarm();
        return outcome;
    }
}

/// The answers to the questions of `requests` not answered yet, each put to the caller's user
/// (or the client's elicitor).
///
/// # Errors
/// When a question cannot be asked here, or is of a kind this client does not answer: the
/// call fails, and dropping it cancels the task rather than leave it waiting for nobody.
async fn answer(
    requests: &InputRequests,
    answered: &mut HashSet<String>,
    ctx: &ToolContext,
    elicitor: Option<&Elicitor>,
) -> Result<InputResponses, ServiceError> {
    let mut responses = InputResponses::new();
    for (key, request) in requests {
        if answered.contains(key) {
            continue;
        }
        let InputRequest::Elicitation(request) = request else {
            return Err(malformed(&format!(
                "it asks `{key}` for something other than an elicitation, which this client \
                 does not answer"
            )));
        };
        let params = serde_json::to_value(request)
            .map(|r| r["params"].clone())
            .map_err(|e| malformed(&format!("its question `{key}` is unreadable: {e}")))?;
        let question = super::elicitation::question(&params)
            .map_err(|e| malformed(&format!("its question `{key}`: {e}")))?;
        let reply = if ctx.can_elicit() {
            ctx.ask(question).await
        } else if let Some(elicitor) = elicitor {
            elicitor.0.ask(question).await
        } else {
            Err(ElicitError::Unsupported(
                "the caller cannot be asked and the client has no elicitor \
                 (McpServerConfig::with_elicitor)"
                    .to_owned(),
            ))
        };
        let reply = reply.map_err(|e| malformed(&format!("it asks for input: {e}")))?;
        let schema = params.get("requestedSchema");
        responses.insert(key.clone(), super::elicitation::answer(reply, schema));
        answered.insert(key.clone());
    }
    Ok(responses)
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
