//! MCP tasks on the wire (the `io.modelcontextprotocol/tasks` extension of MCP 2026-07-28):
//! when a `tools/call` becomes a task, `CreateTaskResult`, and `tasks/get`, `tasks/update`,
//! `tasks/cancel`. The tasks themselves are [`crate::task`]'s.
//!
//! The rules kept here: a client gets a task only when it declared the extension on that very
//! request (`_meta["io.modelcontextprotocol/clientCapabilities"]`); a `task = "required"` tool
//! called without it is -32021 with `data.requiredCapabilities` (rmcp answers the same for
//! `tasks/*`); an unknown or expired id is -32602; the call is answered with the task only
//! once the store holds it; a tool's `isError` result is `completed`, a JSON-RPC error
//! `failed`.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, PoisonError};

use rmcp::model::{
    CallToolResponse, ClientCapabilities, CreateTaskResult, DetailedTask, ErrorCode, ErrorData,
    GetTaskResult, Task, TaskPayload, TaskStatus as WireStatus,
};
use rmcp::service::{RequestContext, RoleServer};
use serde_json::{Map, Value};

use super::convert;
use crate::failure::ToolFailure;
use crate::failure::transport::{McpOutcome, for_mcp};
use crate::runtime::Subscription;
use crate::task::{
    TaskError, TaskOutcome, TaskRecord, TaskSpec, TaskStatus, TaskSupport, Tasks, iso8601,
};
use crate::tool::{ToolContext, ToolExecution, ToolExecutor};

/// The `_meta` key every 2026-07-28 request carries.
pub(super) const VERSION_META: &str = "io.modelcontextprotocol/protocolVersion";

/// Whether the request is of a version before 2026-07-28 (its `_meta` names no version).
pub(super) fn is_legacy(context: &RequestContext<RoleServer>) -> bool {
    !context.meta.0.0.contains_key(VERSION_META)
}

/// How a `tools/call` is answered.
pub(super) enum Mode {
    /// In its own request.
    Plain,
    /// As a task with these settings.
    Task(TaskSpec),
}

/// Whether the request declared the tasks extension in its own `_meta` (or, for a session
/// opened with `initialize`, in its capabilities).
pub(super) fn declared(context: &RequestContext<RoleServer>) -> bool {
    context
        .client_capabilities()
        .is_some_and(|caps| caps.supports_tasks())
}

/// How a call of `tool` (whose task settings are `settings`) is answered for this request;
/// for a tool that runs only as a task, called by a client that did not ask for one, -32021
/// (2026-07-28: the extension was not declared) or -32601 (2025-11-25: no `params.task`).
pub(super) fn mode(
    tool: &str,
    settings: Option<TaskSpec>,
    declared: bool,
    legacy: bool,
) -> Result<Mode, ErrorData> {
    let Some(settings) = settings else {
        return Ok(Mode::Plain);
    };
    match (settings.support, declared) {
        (TaskSupport::Forbidden, _) | (TaskSupport::Optional, false) => Ok(Mode::Plain),
        (TaskSupport::Required, false) if legacy => Err(ErrorData::new(
            ErrorCode::METHOD_NOT_FOUND,
            format!("tool `{tool}` runs only as a task: call it with `params.task`"),
            None,
        )),
        (TaskSupport::Required, false) => Err(missing_capability()),
        (_, true) => Ok(Mode::Task(settings)),
    }
}

/// -32021 naming the extension the client must declare.
pub(super) fn missing_capability() -> ErrorData {
    ErrorData::missing_required_client_capability(
        ClientCapabilities::builder().enable_tasks().build(),
    )
}

/// Starts the call as a task and answers `CreateTaskResult` once the store holds it.
pub(super) async fn start(
    tasks: &Tasks,
    executor: Arc<dyn ToolExecutor>,
    name: String,
    params: Value,
    ctx: ToolContext,
    settings: TaskSpec,
    wrap: Option<convert::Shape>,
) -> Result<CallToolResponse, ErrorData> {
    let (record, _) = start_record(tasks, executor, name, params, ctx, settings, wrap).await?;
    Ok(CallToolResponse::Task(CreateTaskResult::new(wire_task(
        &record,
    ))))
}

/// Starts the call as a task; its first record, once the store holds it, and its chunks from
/// the start.
pub(super) async fn start_record(
    tasks: &Tasks,
    executor: Arc<dyn ToolExecutor>,
    name: String,
    params: Value,
    ctx: ToolContext,
    settings: TaskSpec,
    wrap: Option<convert::Shape>,
) -> Result<(TaskRecord, Subscription), ErrorData> {
    let tool = name.clone();
    let call = move |ctx: ToolContext| -> crate::tool::BoxFuture<'static, _> {
        Box::pin(async move {
            // Generated tools catch their own panics; a hand-written executor may not.
            crate::tool::CatchUnwind::new(executor.execute_with_context(&name, &params, ctx))
                .await
                .unwrap_or_else(|panic| Err(panic.into_failure(&name)))
        })
    };
    let finish = Box::new(move |outcome| finish(outcome, wrap));
    tasks
        .start_subscribed(&tool, settings, ctx, call, finish)
        .await
        .map_err(|e| to_error(&e))
}

/// A finished call as the task's outcome: the `CallToolResult` (a tool's failure included, as
/// `isError`), or the JSON-RPC error a plain call would have answered.
fn finish(
    outcome: Result<ToolExecution, ToolFailure>,
    wrap: Option<convert::Shape>,
) -> TaskOutcome {
    let result = match outcome {
        Ok(execution) => convert::success(execution.output, wrap),
        Err(failure) => match for_mcp(&failure) {
            McpOutcome::ToolError { text, details } => convert::tool_error(text, details),
            McpOutcome::ProtocolError { code, message } => {
                let error = ErrorData::new(ErrorCode(code), message, None);
                return TaskOutcome::Error(object(serde_json::to_value(error)));
            }
        },
    };
    TaskOutcome::Result(object(serde_json::to_value(result)))
}

fn object(value: Result<Value, serde_json::Error>) -> Map<String, Value> {
    match value {
        Ok(Value::Object(map)) => map,
        // rmcp's result and error types serialize to objects; anything else is a bug there,
        // reported rather than lost.
        other => {
            let mut map = Map::new();
            map.insert("code".into(), Value::from(-32603));
            map.insert(
                "message".into(),
                Value::from(format!("the task's result did not serialize: {other:?}")),
            );
            map
        }
    }
}

/// `tasks/get`: the task with its result, error or input requests.
pub(super) async fn get(tasks: &Tasks, id: &str) -> Result<GetTaskResult, ErrorData> {
    let record = tasks.get(id).await.map_err(|e| to_error(&e))?;
    Ok(GetTaskResult::new(detailed(&record)))
}

/// `tasks/cancel`: asks the task to stop; an empty acknowledgment.
pub(super) async fn cancel(tasks: &Tasks, id: &str) -> Result<(), ErrorData> {
    tasks.cancel(id).await.map_err(|e| to_error(&e))
}

/// `tasks/update`: answers to the questions a task waits on (`inputResponses`); the task's
/// call goes on where it asked. Keys that are not outstanding are ignored, as the extension
/// says.
pub(super) async fn update(
    tasks: &Tasks,
    id: &str,
    responses: rmcp::model::InputResponses,
) -> Result<(), ErrorData> {
    let responses = responses.into_iter().collect();
    tasks.answer(id, responses).await.map_err(|e| to_error(&e))
}

pub(super) fn to_error(error: &TaskError) -> ErrorData {
    match error {
        TaskError::Unknown(_) => ErrorData::invalid_params(error.to_string(), None),
        _ => ErrorData::internal_error(error.to_string(), None),
    }
}

/// The record as the extension's `Task`.
fn wire_task(record: &TaskRecord) -> Task {
    let mut task = Task::new(
        record.id.to_string(),
        wire_status(record.status),
        iso8601(record.created_at),
        iso8601(record.updated_at),
    )
    .with_ttl_ms(millis(record.ttl))
    .with_poll_interval_ms(millis(record.poll_interval));
    task.status_message.clone_from(&record.status_message);
    task
}

fn millis(d: std::time::Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

const fn wire_status(status: TaskStatus) -> WireStatus {
    match status {
        TaskStatus::Working => WireStatus::Working,
        TaskStatus::InputRequired => WireStatus::InputRequired,
        TaskStatus::Completed => WireStatus::Completed,
        TaskStatus::Failed => WireStatus::Failed,
        TaskStatus::Cancelled => WireStatus::Cancelled,
    }
}

/// The record as a `DetailedTask`: the payload its status calls for.
fn detailed(record: &TaskRecord) -> DetailedTask {
    let task = wire_task(record);
    let payload = match (record.status, &record.outcome) {
        (TaskStatus::Completed, Some(TaskOutcome::Result(result))) => TaskPayload::Completed {
            result: result.clone(),
        },
        (TaskStatus::Failed, Some(TaskOutcome::Error(error))) => TaskPayload::Failed {
            error: error.clone(),
        },
        (TaskStatus::Cancelled, _) => TaskPayload::Cancelled,
        (TaskStatus::InputRequired, _) => {
            let requests = record.input_requests.clone().unwrap_or_default();
            match serde_json::from_value(Value::Object(requests)) {
                Ok(input_requests) => TaskPayload::InputRequired { input_requests },
                Err(e) => failed_payload(&format!("the task's input requests are malformed: {e}")),
            }
        }
        (TaskStatus::Working, _) => TaskPayload::Working,
        // A terminal record without its outcome (a store that lost it) reads as a failure.
        (TaskStatus::Completed | TaskStatus::Failed, _) => {
            failed_payload("the task ended, and its outcome was not kept")
        }
    };
    DetailedTask::new(task, payload)
}

fn failed_payload(message: &str) -> TaskPayload {
    let error = ErrorData::internal_error(message.to_owned(), None);
    TaskPayload::Failed {
        error: object(serde_json::to_value(error)),
    }
}

/// The methods whose `taskId` a 2026-07-28 client mirrors into `Mcp-Name` over HTTP.
#[cfg(feature = "mcp-http")]
const ROUTED: [&str; 3] = ["tasks/get", "tasks/update", "tasks/cancel"];

/// Fills in `Mcp-Name` from the body's `taskId` on a `tasks/get`, `tasks/update` or
/// `tasks/cancel` that came without one. The extension says the client sends it (for a
/// balancer that routes by task); rmcp's HTTP service refuses such a request with -32020, and
/// the Python client of `fastmcp-tasks` 4.1.4 never sends it. A task here is readable from any
/// replica, so nothing is routed by it: the header is taken from the body, as that package's
/// own server does. A header that is present is left alone, so one that disagrees with the body is
/// still refused. Only requests whose `Mcp-Method` names one of these methods are parsed.
#[cfg(feature = "mcp-http")]
pub(super) fn fill_route(headers: &mut http::HeaderMap, body: &[u8]) {
    #[derive(serde::Deserialize)]
    struct Probe {
        params: Option<Params>,
    }
    #[derive(serde::Deserialize)]
    struct Params {
        #[serde(rename = "taskId")]
        task_id: Option<Box<str>>,
    }
    let routed = headers
        .get("mcp-method")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|m| ROUTED.contains(&m));
    if !routed || headers.contains_key("mcp-name") {
        return;
    }
    let Some(id) = serde_json::from_slice::<Probe>(body)
        .ok()
        .and_then(|p| p.params?.task_id)
    else {
        return;
    };
    // An id that cannot be a header value is not one of ours; rmcp refuses the request.
    if let Ok(value) = http::HeaderValue::from_str(&id) {
        headers.insert("mcp-name", value);
    }
}

/// Tasks for a server whose tools include one that can be a task: the in-memory store.
pub(super) fn default_tasks(specs: &crate::tool::SpecList) -> Option<Tasks> {
    specs
        .iter()
        .any(|s| s.task_support() != TaskSupport::Forbidden)
        .then(Tasks::default)
}

/// Declares the extension in the server's capabilities (`server/discover`, `initialize`).
pub(super) fn advertise(capabilities: &mut rmcp::model::ServerCapabilities) {
    capabilities
        .extensions
        .get_or_insert_with(Default::default)
        .insert(rmcp::model::TASKS_EXTENSION_ID.to_owned(), Map::new());
}

/// How many task ids one session's 2025-11-25 `tasks/list` remembers (the oldest go first),
/// and how many sessions are remembered (the least recently creating goes first).
const PER_SESSION: usize = 1_000;
const SESSIONS: usize = 1_000;

/// The task ids each session created, for 2025-11-25's `tasks/list` (`mcp/tasks_legacy.rs`).
#[derive(Debug, Default)]
pub(super) struct Owned {
    sessions: Mutex<VecDeque<(String, VecDeque<String>)>>,
}

impl Owned {
    pub(super) fn add(&self, session: &str, id: String) {
        let mut sessions = self.sessions.lock().unwrap_or_else(PoisonError::into_inner);
        let mut ids = match sessions.iter().position(|(s, _)| s == session) {
            Some(i) => sessions.remove(i).map(|(_, ids)| ids).unwrap_or_default(),
            None => VecDeque::new(),
        };
        if ids.len() == PER_SESSION {
            ids.pop_front();
        }
        ids.push_back(id);
        if sessions.len() == SESSIONS {
            sessions.pop_front();
        }
        sessions.push_back((session.to_owned(), ids));
    }

    pub(super) fn of(&self, session: &str) -> Vec<String> {
        let sessions = self.sessions.lock().unwrap_or_else(PoisonError::into_inner);
        sessions
            .iter()
            .find(|(s, _)| s == session)
            .map(|(_, ids)| ids.iter().cloned().collect())
            .unwrap_or_default()
    }
}
