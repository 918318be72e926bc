//! MCP tasks in the 2025-11-25 form, on the same tasks as the 2026-07-28 extension
//! (`mcp/tasks.rs`): `params.task: {ttl}` on `tools/call` answered with `{task}`, the
//! capability `tasks.requests.tools.call` (with `tasks.list` and `tasks.cancel`) in
//! `initialize`, `Tool.execution.taskSupport` in `tools/list`, `tasks/get`, the blocking
//! `tasks/result`, `tasks/list`, `tasks/cancel`, `notifications/tasks/status` when a task
//! ends, and the task's progress as `notifications/progress` on the call's `progressToken`.
//!
//! rmcp 3.11 carries none of this: it drops `params.task`, has no `Tool.execution` and no
//! `tasks` capability, and answers `tasks/get` and `tasks/cancel` with the extension's shapes,
//! only for a client that declared the extension. So the transports hand such a request to
//! rmcp under a private method name ([`rewrite`]: the stdio reader before it parses a line,
//! the HTTP gate before rmcp reads the body), rmcp passes it to the server's
//! `on_custom_request`, and [`serve`] answers it in the 2025-11-25 shapes. Only requests
//! without 2026-07-28's `_meta` protocol version are rewritten (a 2026-07-28 server ignores
//! `params.task`), and only on a server that runs tasks. The `initialize` answer gets the
//! `tasks` capability from [`advertise`] on its way out.
//!
//! Differences from the extension, from the 2025-11-25 schema: `ttl` and `pollInterval`
//! instead of `ttlMs` and `pollIntervalMs`; a tool result with `isError: true` is `failed`;
//! `tasks/cancel` of a finished task is -32602, and otherwise answers the task once it is
//! `cancelled`; a `required` tool called without `params.task` is -32601, as is `params.task`
//! on a tool that is never a task. `tasks/list` lists the tasks the same session (the stdio
//! connection, the HTTP `Mcp-Session-Id`) created: a task's id is all that guards it, and a
//! list open to every caller would give ids away.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::Duration;

use rmcp::ServerHandler;
use rmcp::model::{
    CallToolRequestParams, ClientJsonRpcMessage, ClientRequest, CustomNotification, CustomRequest,
    CustomResult, ErrorCode, ErrorData, GetMeta, ProgressNotificationParam, ProgressToken,
    ServerNotification, ServerResult,
};
use rmcp::service::{Peer, RequestContext, RoleServer};
use serde_json::{Map, Value, json};

use super::server::McpServer;
use super::tasks::Owned;
use crate::runtime::Subscription;
use crate::task::{TaskOutcome, TaskRecord, TaskSpec, TaskStatus, TaskSupport, Tasks, iso8601};
use crate::tool::ToolStreamChunk;

/// The private method names rmcp sees for the rewritten requests.
const PREFIX: &str = "executor/tasks-2025-11-25/";

/// The methods rewritten, in their 2025-11-25 names (`tools/call` only with `params.task`).
const METHODS: [&str; 6] = [
    "tools/call",
    "tools/list",
    "tasks/get",
    "tasks/result",
    "tasks/list",
    "tasks/cancel",
];

/// The `_meta` key every 2026-07-28 request carries.
const VERSION_META: &str = super::tasks::VERSION_META;

/// The `_meta` key tying a `tasks/result` answer to its task.
const RELATED_TASK: &str = "io.modelcontextprotocol/related-task";

/// A `tasks/list` page.
const PAGE: usize = 100;

/// How long `tasks/cancel` waits for a running call to stop before it answers the task as it
/// then is (a call that ignores its cancellation keeps its status until it ends).
const CANCEL_WAIT: Duration = Duration::from_secs(5);

/// How often `tasks/result` (and the relay that sends the status notification) reads the
/// task's record: its poll interval, within these bounds. A wait ends at the latest when the
/// task is forgotten at its TTL (-32602).
const RESULT_POLL: (Duration, Duration) = (Duration::from_millis(10), Duration::from_secs(1));

/// The request in `raw`, renamed to its private method when it is a 2025-11-25 task request
/// (see the module docs); `None` for anything else, which is most requests, found without
/// parsing them.
pub(crate) fn rewrite(raw: &[u8]) -> Option<Vec<u8>> {
    let finder = |needle: &str| memchr::memmem::find(raw, needle.as_bytes()).is_some();
    if !finder("tasks/") && !finder("\"task\"") && !finder("tools/list") {
        return None;
    }
    let mut value: Value = serde_json::from_slice(raw).ok()?;
    let object = value.as_object_mut()?;
    let method = object.get("method")?.as_str()?;
    if !METHODS.contains(&method) {
        return None;
    }
    let params = object.get("params").and_then(Value::as_object);
    let modern = params
        .and_then(|p| p.get("_meta"))
        .and_then(Value::as_object)
        .is_some_and(|meta| meta.contains_key(VERSION_META));
    let augmented = params.is_some_and(|p| p.get("task").is_some_and(Value::is_object));
    if modern || (method == "tools/call" && !augmented) {
        return None;
    }
    let renamed = format!("{PREFIX}{method}");
    object.insert("method".into(), Value::String(renamed));
    serde_json::to_vec(&value).ok()
}

/// Whether a parsed message may be one [`rewrite`] renames: a request of one of its methods
/// whose `_meta` names no version (2026-07-28 requests, the common case, are not read again).
pub(crate) fn may_rename(message: &ClientJsonRpcMessage) -> bool {
    let ClientJsonRpcMessage::Request(request) = message else {
        return false;
    };
    let method = match &request.request {
        ClientRequest::CallToolRequest(_) => "tools/call",
        ClientRequest::ListToolsRequest(_) => "tools/list",
        ClientRequest::GetTaskRequest(_) => "tasks/get",
        ClientRequest::CancelTaskRequest(_) => "tasks/cancel",
        ClientRequest::CustomRequest(custom) => custom.method.as_str(),
        _ => return false,
    };
    METHODS.contains(&method) && request.request.get_meta().protocol_version().is_none()
}

/// Whether `method` is one [`rewrite`] gives rmcp.
pub(crate) fn is_private(method: &str) -> bool {
    method
        .strip_prefix(PREFIX)
        .is_some_and(|m| METHODS.contains(&m))
}

/// The 2025-11-25 name of a private method.
pub(crate) fn public(method: &str) -> &str {
    method.strip_prefix(PREFIX).unwrap_or(method)
}

/// Adds the `tasks` capability to an `initialize` result (as JSON), as 2025-11-25 declares it.
pub(crate) fn advertise(result: &mut Value) {
    if let Some(capabilities) = result
        .get_mut("capabilities")
        .and_then(Value::as_object_mut)
    {
        capabilities.insert(
            "tasks".into(),
            json!({"list": {}, "cancel": {}, "requests": {"tools": {"call": {}}}}),
        );
    }
}

/// [`advertise`] on the `initialize` answer as it streams out of rmcp's HTTP service (one JSON
/// body, or an SSE event in one chunk): the capability is spliced in after
/// `"capabilities":{`, which only the result's own object can contain (a string holding it
/// would have its quotes escaped). Chunks without it pass unchanged.
#[cfg(feature = "mcp-http")]
pub(crate) fn advertise_in(chunk: hyper::body::Bytes) -> hyper::body::Bytes {
    const AT: &[u8] = b"\"capabilities\":{";
    const TASKS: &[u8] =
        b"\"tasks\":{\"list\":{},\"cancel\":{},\"requests\":{\"tools\":{\"call\":{}}}}";
    let Some(at) = memchr::memmem::find(&chunk, AT) else {
        return chunk;
    };
    let at = at + AT.len();
    let empty = chunk.get(at) == Some(&b'}');
    let mut patched = Vec::with_capacity(chunk.len() + TASKS.len() + 1);
    patched.extend_from_slice(&chunk[..at]);
    patched.extend_from_slice(TASKS);
    if !empty {
        patched.push(b',');
    }
    patched.extend_from_slice(&chunk[at..]);
    patched.into()
}

/// Answers a rewritten request; `None` for a custom request that is not one.
impl McpServer {
    /// Answers a request [`rewrite`] renamed; `None` for a custom request that is not one.
    pub(super) async fn legacy_task_request(
        &self,
        request: &CustomRequest,
        context: RequestContext<RoleServer>,
    ) -> Option<Result<CustomResult, ErrorData>> {
        serve(self, request, context).await
    }

    /// The ids of the tasks each session created (2025-11-25 `tasks/list`).
    fn owned_tasks(&self) -> &Arc<Owned> {
        &self.inner.owned_tasks
    }
}

async fn serve(
    server: &McpServer,
    request: &CustomRequest,
    context: RequestContext<RoleServer>,
) -> Option<Result<CustomResult, ErrorData>> {
    let method = request.method.strip_prefix(PREFIX)?;
    let params = request.params.clone().unwrap_or(Value::Null);
    let answer = match method {
        "tools/list" => list_tools(server, context).await,
        "tools/call" => call(server, params, context).await,
        // A session that declared the 2026-07-28 extension at `initialize` (as
        // `McpToolExecutor` does) got its tasks in the extension's form: it reads them so.
        "tasks/get" if super::tasks::declared(&context) => match task_id(&params) {
            Ok(id) => extension_get(server, &id).await,
            Err(e) => Err(e),
        },
        "tasks/get" => match task_id(&params) {
            Ok(id) => get(server, &id).await,
            Err(e) => Err(e),
        },
        "tasks/result" => match task_id(&params) {
            Ok(id) => result(server, &id, &context).await,
            Err(e) => Err(e),
        },
        "tasks/list" => list(server, &params, &context).await,
        "tasks/cancel" => match task_id(&params) {
            Ok(id) => cancel(server, &id).await,
            Err(e) => Err(e),
        },
        _ => return None,
    };
    Some(answer.map(CustomResult))
}

fn task_id(params: &Value) -> Result<String, ErrorData> {
    params
        .get("taskId")
        .and_then(Value::as_str)
        .map(str::to_owned)
        .ok_or_else(|| ErrorData::invalid_params("`taskId` must be a string", None))
}

/// `tools/list` with each tool's `execution.taskSupport`.
async fn list_tools(
    server: &McpServer,
    context: RequestContext<RoleServer>,
) -> Result<Value, ErrorData> {
    let mut settings: HashMap<String, Option<TaskSpec>> = HashMap::new();
    let listed = server.list_tools(None, context.clone()).await?;
    for tool in &listed.tools {
        settings.insert(
            tool.name.to_string(),
            server.task_settings(&tool.name, &context),
        );
    }
    let mut result = ServerResult::ListToolsResult(listed);
    result.strip_result_type_for_legacy_peer();
    result.strip_non_object_output_for_legacy_peer();
    let mut value = serde_json::to_value(result).map_err(|e| internal(e.to_string()))?;
    if let Some(tools) = value.get_mut("tools").and_then(Value::as_array_mut) {
        for tool in tools {
            let support = tool
                .get("name")
                .and_then(Value::as_str)
                .and_then(|name| settings.get(name).copied().flatten())
                .map_or(TaskSupport::Forbidden, |s| s.support);
            if let Some(tool) = tool.as_object_mut() {
                tool.insert(
                    "execution".into(),
                    json!({"taskSupport": support_name(support)}),
                );
            }
        }
    }
    Ok(value)
}

const fn support_name(support: TaskSupport) -> &'static str {
    match support {
        TaskSupport::Forbidden => "forbidden",
        TaskSupport::Optional => "optional",
        TaskSupport::Required => "required",
    }
}

/// `tools/call` with `params.task`: `{task}` once the store holds it.
async fn call(
    server: &McpServer,
    params: Value,
    context: RequestContext<RoleServer>,
) -> Result<Value, ErrorData> {
    let requested_ttl = params
        .get("task")
        .and_then(|t| t.get("ttl"))
        .and_then(Value::as_u64)
        .map(Duration::from_millis);
    let request: CallToolRequestParams = serde_json::from_value(params)
        .map_err(|e| ErrorData::invalid_params(format!("invalid tools/call params: {e}"), None))?;
    let tasks = server.tasks()?;
    let mut settings = match server.task_settings(&request.name, &context) {
        Some(settings) if settings.support != TaskSupport::Forbidden => settings,
        _ => {
            return Err(ErrorData::new(
                ErrorCode::METHOD_NOT_FOUND,
                format!(
                    "tool `{}` does not run as a task: call it without `params.task`",
                    request.name
                ),
                None,
            ));
        }
    };
    // The client's ttl, within the tool's (the server's default when the tool sets none).
    if let Some(ttl) = requested_ttl {
        settings.ttl = Some(settings.ttl.map_or(ttl, |own| own.min(ttl)));
    }
    let ctx = server.call_context(&request, &context)?;
    let wrap = server.wraps(&request.name, &context);
    let executor = server.executor();
    let params = Value::Object(request.arguments.unwrap_or_default());
    let name = request.name.to_string();
    let (record, chunks) =
        super::tasks::start_record(tasks, executor, name, params, ctx, settings, wrap).await?;
    let id = record.id.to_string();
    if let Some(session) = server.session_of(&context) {
        server.owned_tasks().add(&session, id.clone());
    }
    let token = context.meta.get_progress_token();
    let relay = relay(tasks.clone(), id, chunks, token, context.peer.clone());
    tokio::spawn(relay);
    Ok(json!({"task": wire_task(&record)}))
}

/// While the task runs, its progress as `notifications/progress` on the call's
/// `progressToken` (2025-11-25 keeps the token valid for the task's lifetime; 2026-07-28 has
/// no progress for tasks); once it ends, `notifications/tasks/status` (the spec leaves which
/// transitions are notified to the server; polling stays the source of truth).
async fn relay(
    tasks: Tasks,
    id: String,
    mut chunks: Subscription,
    token: Option<ProgressToken>,
    peer: Peer<RoleServer>,
) {
    while let Some(chunk) = chunks.next().await {
        let (Some(token), ToolStreamChunk::Progress { fraction, message }) = (&token, chunk) else {
            continue;
        };
        let mut param = ProgressNotificationParam::new(token.clone(), fraction);
        param.total = Some(1.0);
        param.message = message;
        // A client that left has nobody to tell; the task runs on.
        let _ = peer.notify_progress(param).await;
    }
    let Ok(record) = until_terminal(&tasks, &id, None, None).await else {
        return;
    };
    let notification = CustomNotification::new(
        "notifications/tasks/status",
        Some(Value::Object(wire_task(&record))),
    );
    // A client that left has nobody to tell.
    let _ = peer
        .send_notification(ServerNotification::CustomNotification(notification))
        .await;
}

/// The task's record once it has ended (read at its poll interval, within the bounds), or
/// sooner when `stop` fires; -32602 once it is unknown or expired.
async fn until_terminal(
    tasks: &Tasks,
    id: &str,
    stop: Option<&tokio_util::sync::CancellationToken>,
    mut questions: Option<(&Peer<RoleServer>, &mut HashSet<String>)>,
) -> Result<TaskRecord, ErrorData> {
    loop {
        let record = tasks
            .get(id)
            .await
            .map_err(|e| super::tasks::to_error(&e))?;
        if record.status.is_terminal() {
            return Ok(record);
        }
        if let (TaskStatus::InputRequired, Some((peer, asked))) = (record.status, &mut questions) {
            put_questions(tasks, id, &record, peer, asked).await?;
            continue;
        }
        let wait = record.poll_interval.clamp(RESULT_POLL.0, RESULT_POLL.1);
        match stop {
            Some(stop) => tokio::select! {
                () = tokio::time::sleep(wait) => {}
                () = stop.cancelled() => return Ok(record),
            },
            None => tokio::time::sleep(wait).await,
        }
    }
}

/// Puts the questions of an `input_required` task to the client that waits on its
/// `tasks/result`, as 2025-11-25 does: `elicitation/create` in the session, with the task named
/// in `_meta`; the answers go to the task as `tasks/update`'s would. A question the client
/// cannot take (no `elicitation` capability, a failed request) is answered `cancel`, so the
/// tool goes on (and ends) rather than wait for nobody.
async fn put_questions(
    tasks: &Tasks,
    id: &str,
    record: &TaskRecord,
    peer: &Peer<RoleServer>,
    asked: &mut HashSet<String>,
) -> Result<(), ErrorData> {
    let mut answers = Map::new();
    for (key, request) in record.input_requests.iter().flatten() {
        if !asked.insert(key.clone()) {
            continue;
        }
        let mut params = request["params"].clone();
        if let Value::Object(params) = &mut params {
            params.insert("_meta".into(), json!({RELATED_TASK: {"taskId": id}}));
        }
        let answer = match ask(peer, params).await {
            Ok(answer) => answer,
            Err(_) => json!({"action": "cancel"}),
        };
        answers.insert(key.clone(), answer);
    }
    if answers.is_empty() {
        // Asked already: the answer is on its way to the call (within its poll interval).
        tokio::time::sleep(RESULT_POLL.0).await;
        return Ok(());
    }
    tasks
        .answer(id, answers)
        .await
        .map_err(|e| super::tasks::to_error(&e))
}

/// One `elicitation/create` to the client: its `ElicitResult`.
async fn ask(peer: &Peer<RoleServer>, params: Value) -> Result<Value, String> {
    let declared = peer
        .peer_info()
        .and_then(|info| info.capabilities.elicitation.clone());
    if declared.is_none() {
        return Err("the client did not declare elicitation".to_owned());
    }
    let params: rmcp::model::ElicitRequestParams =
        serde_json::from_value(params).map_err(|e| e.to_string())?;
    let request =
        rmcp::model::ServerRequest::ElicitRequest(rmcp::model::ElicitRequest::new(params));
    match peer
        .send_request(request)
        .await
        .map_err(|e| e.to_string())?
    {
        rmcp::model::ClientResult::ElicitResult(result) => {
            serde_json::to_value(&result).map_err(|e| e.to_string())
        }
        _ => Err("the client answered elicitation/create with another result".to_owned()),
    }
}

/// `tasks/get` in the 2026-07-28 extension's form: the task with its result or error.
async fn extension_get(server: &McpServer, id: &str) -> Result<Value, ErrorData> {
    let result = super::tasks::get(server.tasks()?, id).await?;
    serde_json::to_value(&result).map_err(|e| internal(format!("unwritable task: {e}")))
}

/// `tasks/get`: the task (no result).
async fn get(server: &McpServer, id: &str) -> Result<Value, ErrorData> {
    let record = server
        .tasks()?
        .get(id)
        .await
        .map_err(|e| super::tasks::to_error(&e))?;
    Ok(Value::Object(wire_task(&record)))
}

/// `tasks/result`: blocks until the task ends, then answers what the call itself would have:
/// its result (with the task named in `_meta`) or its JSON-RPC error.
async fn result(
    server: &McpServer,
    id: &str,
    context: &RequestContext<RoleServer>,
) -> Result<Value, ErrorData> {
    let tasks = server.tasks()?;
    let mut asked = HashSet::new();
    let questions = Some((&context.peer, &mut asked));
    let record = until_terminal(tasks, id, Some(&context.ct), questions).await?;
    let related = json!({RELATED_TASK: {"taskId": id}});
    match (record.status, record.outcome) {
        (TaskStatus::Completed, Some(TaskOutcome::Result(result))) => {
            let mut result = legacy_result(result)?;
            let meta = result
                .entry("_meta")
                .or_insert_with(|| Value::Object(Map::new()));
            if let (Some(meta), Value::Object(related)) = (meta.as_object_mut(), related) {
                meta.extend(related);
            }
            Ok(Value::Object(result))
        }
        (TaskStatus::Failed, Some(TaskOutcome::Error(error))) => {
            let mut error: ErrorData = serde_json::from_value(Value::Object(error))
                .unwrap_or_else(|e| internal(format!("the task's error is malformed: {e}")));
            error.data.get_or_insert(related);
            Err(error)
        }
        (TaskStatus::Cancelled, _) => Err(ErrorData::new(
            ErrorCode(-32800),
            format!("task {id} was cancelled"),
            Some(related),
        )),
        // The request was cancelled while the task ran on; the answer goes nowhere.
        (TaskStatus::Working | TaskStatus::InputRequired, _) => Err(ErrorData::new(
            ErrorCode(-32800),
            format!("tasks/result for {id} was cancelled"),
            None,
        )),
        (_, _) => Err(internal("the task ended, and its outcome was not kept")),
    }
}

/// A stored `CallToolResult` (kept in the 2026-07-28 shape) as 2025-11-25 has it: no
/// `resultType`, and structured content only when it is an object.
fn legacy_result(stored: Map<String, Value>) -> Result<Map<String, Value>, ErrorData> {
    let result: rmcp::model::CallToolResult = serde_json::from_value(Value::Object(stored))
        .map_err(|e| internal(format!("the task's result is malformed: {e}")))?;
    let mut result = ServerResult::CallToolResult(result);
    result.strip_result_type_for_legacy_peer();
    result.strip_non_object_output_for_legacy_peer();
    match serde_json::to_value(result) {
        Ok(Value::Object(map)) => Ok(map),
        other => Err(internal(format!(
            "the task's result did not serialize: {other:?}"
        ))),
    }
}

/// `tasks/list`: the tasks this session created that are still kept, newest last, a page at
/// a time (the cursor is an offset into that list).
async fn list(
    server: &McpServer,
    params: &Value,
    context: &RequestContext<RoleServer>,
) -> Result<Value, ErrorData> {
    let tasks = server.tasks()?;
    let start = match params.get("cursor") {
        None | Some(Value::Null) => 0,
        Some(cursor) => cursor
            .as_str()
            .and_then(|c| c.parse::<usize>().ok())
            .ok_or_else(|| ErrorData::invalid_params("unknown cursor", None))?,
    };
    let ids = server
        .session_of(context)
        .map(|s| server.owned_tasks().of(&s))
        .unwrap_or_default();
    if start > ids.len() {
        return Err(ErrorData::invalid_params("unknown cursor", None));
    }
    let mut listed = Vec::new();
    let mut next = start;
    for id in &ids[start..] {
        if listed.len() == PAGE {
            break;
        }
        next += 1;
        // Forgotten ones (past their TTL) are skipped.
        if let Ok(record) = tasks.get(id).await {
            listed.push(Value::Object(wire_task(&record)));
        }
    }
    let mut answer = json!({"tasks": listed});
    if next < ids.len() {
        answer["nextCursor"] = Value::String(next.to_string());
    }
    Ok(answer)
}

/// `tasks/cancel`: -32602 for a finished task; otherwise the task once it reads `cancelled`.
async fn cancel(server: &McpServer, id: &str) -> Result<Value, ErrorData> {
    let tasks = server.tasks()?;
    let record = tasks
        .get(id)
        .await
        .map_err(|e| super::tasks::to_error(&e))?;
    if record.status.is_terminal() {
        return Err(ErrorData::invalid_params(
            format!(
                "task {id} is already {}",
                wire_status(&record).unwrap_or("finished")
            ),
            None,
        ));
    }
    tasks
        .cancel(id)
        .await
        .map_err(|e| super::tasks::to_error(&e))?;
    let waited = tokio::time::timeout(CANCEL_WAIT, until_terminal(tasks, id, None, None)).await;
    let record = match waited {
        Ok(record) => record?,
        Err(_) => tasks
            .get(id)
            .await
            .map_err(|e| super::tasks::to_error(&e))?,
    };
    Ok(Value::Object(wire_task(&record)))
}

/// The record as 2025-11-25's `Task`.
fn wire_task(record: &TaskRecord) -> Map<String, Value> {
    let mut task = Map::new();
    task.insert("taskId".into(), Value::String(record.id.to_string()));
    let status = wire_status(record).unwrap_or("failed");
    task.insert("status".into(), Value::from(status));
    let message = record
        .status_message
        .clone()
        .or_else(|| failure_message(record));
    if let Some(message) = message {
        task.insert("statusMessage".into(), Value::String(message));
    }
    task.insert("createdAt".into(), iso8601(record.created_at).into());
    task.insert("lastUpdatedAt".into(), iso8601(record.updated_at).into());
    task.insert("ttl".into(), millis(record.ttl).into());
    task.insert("pollInterval".into(), millis(record.poll_interval).into());
    task
}

/// The status on the wire: a result with `isError` is `failed` in 2025-11-25. `None` for a
/// terminal record without its outcome.
fn wire_status(record: &TaskRecord) -> Option<&'static str> {
    Some(match (record.status, &record.outcome) {
        (TaskStatus::Working, _) => "working",
        (TaskStatus::InputRequired, _) => "input_required",
        (TaskStatus::Cancelled, _) => "cancelled",
        (TaskStatus::Completed, Some(TaskOutcome::Result(result)))
            if result.get("isError") == Some(&Value::Bool(true)) =>
        {
            "failed"
        }
        (TaskStatus::Completed, Some(_)) => "completed",
        (TaskStatus::Failed, Some(_)) => "failed",
        (TaskStatus::Completed | TaskStatus::Failed, None) => return None,
    })
}

/// What went wrong, for a failed task's `statusMessage`: the error's message, or the tool
/// error's first text.
fn failure_message(record: &TaskRecord) -> Option<String> {
    match &record.outcome {
        Some(TaskOutcome::Error(error)) => error.get("message")?.as_str().map(str::to_owned),
        Some(TaskOutcome::Result(result)) if result.get("isError") == Some(&Value::Bool(true)) => {
            result
                .get("content")?
                .as_array()?
                .iter()
                .find_map(|block| block.get("text")?.as_str())
                .map(str::to_owned)
        }
        _ => None,
    }
}

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

fn internal(why: impl Into<String>) -> ErrorData {
    ErrorData::internal_error(why.into(), None)
}
