//! MCP tasks (the `io.modelcontextprotocol/tasks` extension of 2026-07-28) on the wire: raw
//! JSON-RPC over stdio and stateless HTTP, checked byte for byte where the answer is
//! deterministic.
#![cfg(feature = "mcp-http")]

mod http_wire;
mod stdio_support;

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::Mutex;
use std::time::Duration;

use http_wire::{Body, Conn};
use serde_json::{Value, json};
use stdio_support::StdioClient;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;
use tokio_util::sync::CancellationToken;
use tool_executor::mcp::{McpServer, McpServerConfig, McpToolExecutor};
use tool_executor::prelude::*;
use tool_executor::task::{MemoryTaskStore, Tasks};
use tool_executor::{FailureKind, ToolStreamChunk};

const WAIT: Duration = Duration::from_secs(10);
const TASKS: &str = "io.modelcontextprotocol/tasks";

/// Opened by a test when `gated` may finish.
static GATE: Semaphore = Semaphore::const_new(0);

/// Writes a report: says where it is, waits for the test to open the gate, then answers.
#[tool(task = "required", ttl = "10m", poll = "20ms")]
async fn report(title: String, ctx: &ToolContext) -> String {
    ctx.progress(0.5, Some(format!("writing {title}"))).await;
    GATE.acquire().await.expect("the gate stays open").forget();
    format!("report: {title}")
}

/// Adds, as a task when the client asks for one.
#[tool(task = "optional", poll = "20ms")]
fn add(a: i64, b: i64) -> i64 {
    a + b
}

/// Never ends unless cancelled.
#[tool(task = "required", poll = "20ms")]
async fn hang() -> String {
    std::future::pending().await
}

/// Fails as a tool does: `isError` (a sync tool, run on the blocking pool).
#[tool(task = "required", poll = "20ms")]
fn refuse(why: String) -> Result<String, String> {
    Err(why)
}

/// A task that lives 300 ms.
#[tool(task = "required", ttl = "300ms", poll = "20ms")]
async fn brief() -> String {
    std::future::pending().await
}

/// The keys of the `held` calls whose futures were dropped.
static DROPPED: Mutex<Vec<String>> = Mutex::new(Vec::new());

/// Records its key in [`DROPPED`] when dropped.
struct Held(String);

impl Drop for Held {
    fn drop(&mut self) {
        DROPPED.lock().unwrap().push(std::mem::take(&mut self.0));
    }
}

/// Never ends unless cancelled; notes `key` when it is.
#[tool(task = "required", poll = "20ms")]
async fn held(key: String) -> String {
    let _held = Held(key);
    std::future::pending().await
}

/// Waits until the `held` call with `key` has been dropped.
async fn until_dropped(key: &str) {
    tokio::time::timeout(WAIT, async {
        while !DROPPED.lock().unwrap().iter().any(|k| k == key) {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    })
    .await
    .unwrap_or_else(|_| panic!("the `held` call `{key}` was never dropped"));
}

/// Deletes a note once the user approves: a task that asks.
#[tool(task = "required", poll = "20ms", confirm)]
async fn delete_note(id: u32) -> String {
    tokio::task::yield_now().await; // the deletion's I/O
    format!("note {id} deleted")
}

/// Three steps, each reported as progress.
#[tool(task = "required", poll = "20ms")]
async fn steps(ctx: &ToolContext) -> u32 {
    for step in 1..=3_u32 {
        ctx.progress(f64::from(step) / 4.0, format!("step {step} of 3"))
            .await;
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    3
}

/// Never a task.
#[tool]
fn plain() -> &'static str {
    "plain"
}

fn server() -> McpServer {
    tool_executor::mcp_server!(toolset![
        report,
        add,
        hang,
        refuse,
        brief,
        held,
        steps,
        delete_note,
        plain
    ])
}

/// The per-request `_meta` of 2026-07-28, declaring the tasks extension or not.
fn meta(tasks: bool) -> Value {
    let capabilities = if tasks {
        json!({"extensions": {TASKS: {}}})
    } else {
        json!({})
    };
    json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": capabilities,
        "io.modelcontextprotocol/clientInfo": {"name": "tasks-test", "version": "1"}
    })
}

/// A stdio client numbering its own requests.
struct Wire {
    client: StdioClient,
    next_id: i64,
}

impl Wire {
    fn start(server: McpServer) -> Self {
        Self {
            client: StdioClient::open(server),
            next_id: 1,
        }
    }

    async fn request(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        self.client.request(self.next_id, method, params).await
    }

    async fn call(&mut self, tool: &str, arguments: Value, tasks: bool) -> Value {
        let params = json!({"name": tool, "arguments": arguments, "_meta": meta(tasks)});
        self.request("tools/call", params).await
    }

    async fn tasks(&mut self, method: &str, id: &str) -> Value {
        self.request(method, json!({"taskId": id, "_meta": meta(true)}))
            .await
    }

    /// `tasks/get` until the task's status is `status` (or the wait runs out).
    async fn until(&mut self, id: &str, status: &str) -> Value {
        tokio::time::timeout(WAIT, async {
            loop {
                let reply = self.tasks("tasks/get", id).await;
                if reply["result"]["status"] == status {
                    return reply["result"].clone();
                }
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
        })
        .await
        .unwrap_or_else(|_| panic!("task {id} never became {status}"))
    }
}

/// The task id of a `CreateTaskResult`, after checking its shape.
fn created(reply: &Value, ttl_ms: u64, poll_ms: u64) -> String {
    let result = &reply["result"];
    assert_eq!(result["resultType"], "task", "{reply}");
    assert_eq!(result["status"], "working", "{reply}");
    assert_eq!(
        (&result["ttlMs"], &result["pollIntervalMs"]),
        (&json!(ttl_ms), &json!(poll_ms))
    );
    let id = result["taskId"].as_str().expect("a task id").to_owned();
    assert!(
        id.len() == 32 && id.bytes().all(|b| b.is_ascii_hexdigit()),
        "128 random bits: {id}"
    );
    for key in ["createdAt", "lastUpdatedAt"] {
        let at = result[key].as_str().unwrap();
        assert!(
            at.len() == 24 && at.ends_with('Z') && at.as_bytes()[10] == b'T',
            "{at}"
        );
    }
    id
}

#[tokio::test]
async fn discover_advertises_the_extension() {
    let mut wire = Wire::start(server());
    let reply = wire
        .request("server/discover", json!({"_meta": meta(false)}))
        .await;
    assert_eq!(
        reply["result"]["capabilities"]["extensions"],
        json!({TASKS: {}})
    );
}

#[tokio::test]
async fn a_server_without_task_tools_advertises_nothing_and_answers_minus_32601() {
    let mut wire = Wire::start(tool_executor::mcp_server!(toolset![plain]));
    let reply = wire
        .request("server/discover", json!({"_meta": meta(false)}))
        .await;
    assert_eq!(
        reply["result"]["capabilities"].get("extensions"),
        None,
        "{reply}"
    );
    let reply = wire.tasks("tasks/get", &"0".repeat(32)).await;
    assert_eq!(reply["error"]["code"], -32601, "{reply}");
}

#[tokio::test]
async fn a_required_task_tool_without_the_extension_is_minus_32021() {
    let mut wire = Wire::start(server());
    let reply = wire.call("report", json!({"title": "q3"}), false).await;
    assert_eq!(
        reply["error"],
        json!({
            "code": -32021,
            "message": "Missing required client capability",
            "data": {"requiredCapabilities": {"extensions": {TASKS: {}}}}
        })
    );
}

#[tokio::test]
async fn a_task_reports_progress_as_its_status_message_then_completes() {
    let mut wire = Wire::start(server());
    let reply = wire.call("report", json!({"title": "q3"}), true).await;
    let id = created(&reply, 600_000, 20);
    // Durable before return: the very next request finds it.
    let first = wire.tasks("tasks/get", &id).await;
    assert_eq!(first["result"]["taskId"], id.as_str(), "{first}");
    assert_eq!(first["result"]["resultType"], "complete");
    let working = tokio::time::timeout(WAIT, async {
        loop {
            let reply = wire.tasks("tasks/get", &id).await;
            if reply["result"]["statusMessage"] == "writing q3" {
                return reply["result"].clone();
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    })
    .await
    .expect("the progress message shows");
    assert_eq!(working["status"], "working");
    GATE.add_permits(1);
    let done = wire.until(&id, "completed").await;
    assert_eq!(
        done["result"],
        json!({
            "content": [{"type": "text", "text": "report: q3"}],
            "structuredContent": {"result": "report: q3"},
            "isError": false,
            "resultType": "complete"
        })
    );
    assert_eq!(done["statusMessage"], "writing q3");
}

#[tokio::test]
async fn an_optional_task_tool_is_a_task_only_when_asked() {
    let mut wire = Wire::start(server());
    let plain = wire.call("add", json!({"a": 2, "b": 40}), false).await;
    assert_eq!(
        plain["result"]["structuredContent"],
        json!({"result": 42}),
        "{plain}"
    );
    assert_eq!(plain["result"]["resultType"], "complete");
    let reply = wire.call("add", json!({"a": 2, "b": 40}), true).await;
    let id = created(&reply, 300_000, 20);
    let done = wire.until(&id, "completed").await;
    assert_eq!(done["result"]["structuredContent"], json!({"result": 42}));
    // A tool that is never a task answers in its request even when the client asks.
    let reply = wire.call("plain", json!({}), true).await;
    assert_eq!(
        reply["result"]["structuredContent"],
        json!({"result": "plain"}),
        "{reply}"
    );
}

#[tokio::test]
async fn cancel_stops_the_call_and_cancelled_is_final() {
    let mut wire = Wire::start(server());
    let id = created(&wire.call("hang", json!({}), true).await, 300_000, 20);
    let ack = wire.tasks("tasks/cancel", &id).await;
    assert_eq!(ack["result"], json!({"resultType": "complete"}), "{ack}");
    let cancelled = wire.until(&id, "cancelled").await;
    for key in ["result", "error", "inputRequests"] {
        assert_eq!(cancelled.get(key), None, "{cancelled}");
    }
    let again = wire.tasks("tasks/cancel", &id).await;
    assert_eq!(again["result"], json!({"resultType": "complete"}));
    assert_eq!(
        wire.tasks("tasks/get", &id).await["result"]["status"],
        "cancelled"
    );
}

#[tokio::test]
async fn a_tool_error_is_completed_with_is_error() {
    let mut wire = Wire::start(server());
    let id = created(
        &wire.call("refuse", json!({"why": "no data"}), true).await,
        300_000,
        20,
    );
    let done = wire.until(&id, "completed").await;
    assert_eq!(done["result"]["isError"], true, "{done}");
    assert_eq!(done["result"]["content"][0]["text"], "no data");
}

#[tokio::test]
async fn unknown_ids_are_minus_32602_and_tasks_methods_need_the_extension() {
    let mut wire = Wire::start(server());
    for method in ["tasks/get", "tasks/cancel"] {
        for id in ["0123456789abcdef0123456789abcdef", "not-a-task"] {
            let reply = wire.tasks(method, id).await;
            assert_eq!(reply["error"]["code"], -32602, "{method} {id}: {reply}");
        }
    }
    let params = json!({"taskId": "not-a-task", "inputResponses": {}, "_meta": meta(true)});
    let reply = wire.request("tasks/update", params).await;
    assert_eq!(reply["error"]["code"], -32602, "{reply}");

    let id = created(&wire.call("hang", json!({}), true).await, 300_000, 20);
    let params = json!({"taskId": id, "_meta": meta(false)});
    let reply = wire.request("tasks/get", params).await;
    assert_eq!(reply["error"]["code"], -32021, "{reply}");
    let params = json!({"taskId": id, "inputResponses": {"k": {}}, "_meta": meta(true)});
    let reply = wire.request("tasks/update", params).await;
    assert_eq!(
        reply["result"],
        json!({"resultType": "complete"}),
        "{reply}"
    );
    wire.tasks("tasks/cancel", &id).await;
}

#[tokio::test]
async fn a_task_past_its_ttl_is_forgotten() {
    let mut wire = Wire::start(server());
    let id = created(&wire.call("brief", json!({}), true).await, 300, 20);
    let gone = tokio::time::timeout(WAIT, async {
        loop {
            let reply = wire.tasks("tasks/get", &id).await;
            if reply.get("error").is_some() {
                return reply;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await
    .expect("the task expires");
    assert_eq!(gone["error"]["code"], -32602, "{gone}");
}

async fn serve_http(server: McpServer) -> (SocketAddr, CancellationToken) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let shutdown = CancellationToken::new();
    tokio::spawn(
        server
            .with_stateless_http(true)
            .serve_http_on(listener, shutdown.clone()),
    );
    (addr, shutdown)
}

/// One stateless 2026-07-28 POST on a connection of its own, with the routing headers.
async fn post(addr: SocketAddr, method: &str, name: &str, params: Value) -> Value {
    let (status, reply) = post_routed(addr, method, Some(name), params).await;
    assert_eq!(status, 200, "{reply}");
    reply
}

/// The same with `Mcp-Name` set to `name`, or left out; the HTTP status and the JSON answer.
async fn post_routed(
    addr: SocketAddr,
    method: &str,
    name: Option<&str>,
    params: Value,
) -> (u16, Value) {
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params}).to_string();
    let name = name
        .map(|n| format!("Mcp-Name: {n}\r\n"))
        .unwrap_or_default();
    let head = format!(
        "POST /mcp HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\n\
         Mcp-Method: {method}\r\n{name}"
    );
    let response = Conn::connect(addr)
        .await
        .send(&head, Body::Length(body.as_bytes()))
        .await
        .unwrap();
    (response.status, response.json())
}

async fn get_until(addr: SocketAddr, id: &str, status: &str) -> Value {
    tokio::time::timeout(WAIT, async {
        loop {
            let params = json!({"taskId": id, "_meta": meta(true)});
            let reply = post(addr, "tasks/get", id, params).await;
            if reply["result"]["status"] == status {
                return reply["result"].clone();
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    })
    .await
    .unwrap_or_else(|_| panic!("task {id} never became {status}"))
}

#[tokio::test]
async fn over_stateless_http_a_task_outlives_its_request() {
    let (addr, shutdown) = serve_http(server()).await;
    let params = json!({"name": "add", "arguments": {"a": 1, "b": 2}, "_meta": meta(true)});
    let id = created(&post(addr, "tools/call", "add", params).await, 300_000, 20);
    let done = get_until(addr, &id, "completed").await;
    assert_eq!(done["result"]["structuredContent"], json!({"result": 3}));

    let params = json!({"name": "hang", "arguments": {}, "_meta": meta(true)});
    let id = created(&post(addr, "tools/call", "hang", params).await, 300_000, 20);
    let params = json!({"taskId": id, "_meta": meta(true)});
    let ack = post(addr, "tasks/cancel", &id, params).await;
    assert_eq!(ack["result"], json!({"resultType": "complete"}), "{ack}");
    get_until(addr, &id, "cancelled").await;
    shutdown.cancel();
}

/// The Python client of `fastmcp-tasks` 4.1.4 sends no `Mcp-Name` on `tasks/*`: the task id
/// is taken from the body. A header that names another task is still refused (-32020).
#[tokio::test]
async fn a_tasks_request_without_mcp_name_is_read_by_its_body_and_a_wrong_one_refused() {
    let (addr, shutdown) = serve_http(server()).await;
    let params = json!({"name": "add", "arguments": {"a": 4, "b": 5}, "_meta": meta(true)});
    let id = created(&post(addr, "tools/call", "add", params).await, 300_000, 20);
    let done = get_until(addr, &id, "completed").await;
    assert_eq!(done["result"]["structuredContent"], json!({"result": 9}));

    let params = json!({"taskId": id, "_meta": meta(true)});
    let (status, reply) = post_routed(addr, "tasks/get", None, params.clone()).await;
    assert_eq!(status, 200, "{reply}");
    assert_eq!(reply["result"], done, "{reply}");
    let (status, reply) = post_routed(addr, "tasks/cancel", None, params.clone()).await;
    assert_eq!(
        (status, &reply["result"]),
        (200, &json!({"resultType": "complete"})),
        "{reply}"
    );

    let other = "0".repeat(32);
    let (status, reply) = post_routed(addr, "tasks/get", Some(&other), params).await;
    assert_eq!(
        (status, &reply["error"]["code"]),
        (400, &json!(-32020)),
        "{reply}"
    );
    assert_eq!(
        reply["error"]["message"],
        format!("Mcp-Name header `{other}` does not match body value `{id}`")
    );
    // Without `Mcp-Method` naming a tasks method nothing is filled in.
    let params = json!({"name": "add", "arguments": {"a": 1, "b": 1}, "_meta": meta(true)});
    let (status, reply) = post_routed(addr, "tools/call", None, params).await;
    assert_eq!(
        (status, &reply["error"]["message"]),
        (
            400,
            &json!("missing required Mcp-Name header for `tools/call`")
        ),
        "{reply}"
    );
    shutdown.cancel();
}

#[tokio::test]
async fn two_replicas_on_one_store_read_and_cancel_each_others_tasks() {
    let store: Arc<MemoryTaskStore> = Arc::new(MemoryTaskStore::default());
    let replica = |store: &Arc<MemoryTaskStore>| {
        server().with_tasks(Tasks::with_store(Arc::clone(store) as _))
    };
    let (one, stop_one) = serve_http(replica(&store)).await;
    let (two, stop_two) = serve_http(replica(&store)).await;
    across_replicas(one, two, "memory").await;
    stop_one.cancel();
    stop_two.cancel();
}

/// What two replicas on one store show: a task created on `one` is found on `two` at once
/// (durable before return) and finished there; one cancelled through `two` is marked there,
/// and `one`, which runs it, stops the call when it next reads the record (`key` names the
/// `held` call).
async fn across_replicas(one: SocketAddr, two: SocketAddr, key: &str) {
    let params = json!({"name": "add", "arguments": {"a": 20, "b": 22}, "_meta": meta(true)});
    let id = created(&post(one, "tools/call", "add", params).await, 300_000, 20);
    let params = json!({"taskId": id, "_meta": meta(true)});
    let first = post(two, "tasks/get", &id, params).await;
    assert_eq!(first["result"]["taskId"], id.as_str(), "{first}");
    let done = get_until(two, &id, "completed").await;
    assert_eq!(done["result"]["structuredContent"], json!({"result": 42}));

    let params = json!({"name": "held", "arguments": {"key": key}, "_meta": meta(true)});
    let id = created(&post(one, "tools/call", "held", params).await, 300_000, 20);
    let params = json!({"taskId": id, "_meta": meta(true)});
    post(two, "tasks/cancel", &id, params).await;
    get_until(one, &id, "cancelled").await;
    until_dropped(key).await;
}

/// A question inside a task: the task is `input_required` with the question in
/// `inputRequests` on every replica, and a `tasks/update` sent to the replica that does not run
/// it answers it (through the store): the call goes on and completes.
#[tokio::test]
async fn a_task_that_asks_is_input_required_and_tasks_update_through_another_replica_answers_it() {
    let store: Arc<MemoryTaskStore> = Arc::new(MemoryTaskStore::default());
    let replica = |store: &Arc<MemoryTaskStore>| {
        server().with_tasks(Tasks::with_store(Arc::clone(store) as _))
    };
    let (one, stop_one) = serve_http(replica(&store)).await;
    let (two, stop_two) = serve_http(replica(&store)).await;
    let params = json!({"name": "delete_note", "arguments": {"id": 4}, "_meta": meta(true)});
    let id = created(
        &post(one, "tools/call", "delete_note", params).await,
        300_000,
        20,
    );
    let asking = get_until(two, &id, "input_required").await;
    assert_eq!(
        asking["inputRequests"],
        json!({"q0": {"method": "elicitation/create", "params": {
            "mode": "form", "message": "Run delete_note with id = 4?",
            "requestedSchema": {"type": "object", "properties": {}}}}}),
        "{asking}"
    );
    let params = json!({"taskId": id, "inputResponses": {"q0": {"action": "accept"}},
                        "_meta": meta(true)});
    let ack = post(two, "tasks/update", &id, params).await;
    assert_eq!(ack["result"], json!({"resultType": "complete"}), "{ack}");
    let done = get_until(one, &id, "completed").await;
    assert_eq!(
        done["result"]["content"][0]["text"], "note 4 deleted",
        "{done}"
    );
    stop_one.cancel();
    stop_two.cancel();
}

/// Our client follows a task that asks: the question goes to the caller's own user (the
/// call's context can ask), the answer back with `tasks/update`, and the call returns the
/// task's result; a caller that cannot be asked gets a clear failure, and the task is cancelled.
#[tokio::test]
async fn our_client_relays_a_tasks_question_to_its_caller_and_answers_with_tasks_update() {
    use tool_executor::elicit::{Asker, Question, Reply};
    let (executor, shutdown) = client(true).await;
    let asked = Arc::new(Mutex::new(Vec::new()));
    let seen = Arc::clone(&asked);
    let user = Asker::new(move |question: Question| {
        let seen = Arc::clone(&seen);
        async move {
            seen.lock().unwrap().push(question.to_params());
            Ok(Reply::accept())
        }
    });
    let ctx = ToolContext::new().with_extension(user);
    let done = executor
        .execute_with_context("delete_note", &json!({"id": 7}), ctx)
        .await
        .unwrap();
    assert_eq!(done.output, json!("note 7 deleted"));
    assert_eq!(
        *asked.lock().unwrap(),
        vec![
            json!({"mode": "form", "message": "Run delete_note with id = 7?",
                    "requestedSchema": {"type": "object", "properties": {}}})
        ],
        "asked once, though the task shows the question until the answer is taken in"
    );

    let failure = executor
        .execute_with_context("delete_note", &json!({"id": 8}), ToolContext::new())
        .await
        .unwrap_err();
    assert!(
        failure.message().contains("it asks for input")
            && failure.message().contains("with_elicitor"),
        "{failure:?}"
    );
    shutdown.cancel();
}

/// Our client on `server` over streamable HTTP (stateful, or stateless).
async fn client(stateless: bool) -> (McpToolExecutor, CancellationToken) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    let shutdown = CancellationToken::new();
    let server = server().with_stateless_http(stateless);
    tokio::spawn(server.serve_http_on(listener, shutdown.clone()));
    let config = McpServerConfig::http("tasks", url);
    let executor = tokio::time::timeout(WAIT, McpToolExecutor::connect(config))
        .await
        .unwrap()
        .unwrap();
    (executor, shutdown)
}

#[tokio::test]
async fn our_client_follows_a_task_and_returns_its_result_as_a_plain_call_would() {
    for stateless in [false, true] {
        let (executor, shutdown) = client(stateless).await;
        // `add` is a task only because our client declares the extension.
        let sum = executor.execute("add", &json!({"a": 2, "b": 40})).await;
        assert_eq!(sum.unwrap(), json!(42), "stateless: {stateless}");

        let mut rx = executor
            .execute_stream("report", &json!({"title": "q4"}), "r-1")
            .await
            .unwrap();
        let mut chunks = Vec::new();
        loop {
            let chunk = tokio::time::timeout(WAIT, rx.recv())
                .await
                .expect("the stream goes on")
                .expect("the stream ends with a terminal chunk");
            if matches!(&chunk, ToolStreamChunk::Progress { message: Some(m), .. } if m == "writing q4")
            {
                GATE.add_permits(1);
            }
            let last = chunk.is_terminal();
            chunks.push(chunk);
            if last {
                break;
            }
        }
        assert_eq!(
            chunks.last(),
            Some(&ToolStreamChunk::Done {
                result: Some(json!("report: q4"))
            }),
            "{chunks:?}"
        );
        let messages: Vec<_> = chunks
            .iter()
            .filter_map(|c| match c {
                ToolStreamChunk::Progress { message, .. } => message.as_deref(),
                _ => None,
            })
            .collect();
        assert_eq!(messages, ["writing q4"], "each status message once");

        // A tool error comes back as the plain call's failure would.
        let refused = executor.execute("refuse", &json!({"why": "no data"})).await;
        assert!(refused.unwrap_err().contains("no data"));
        shutdown.cancel();
    }
}

#[tokio::test]
async fn a_call_our_client_stops_waiting_for_cancels_its_task() {
    let (executor, shutdown) = client(true).await;
    let ctx = ToolContext::new().with_timeout(Duration::from_millis(200));
    let outcome = executor
        .execute_with_context("held", &json!({"key": "client"}), ctx)
        .await;
    assert_eq!(outcome.unwrap_err().kind(), FailureKind::Timeout);
    // tasks/cancel reached the server, which dropped the call.
    until_dropped("client").await;
    shutdown.cancel();
}

/// Two replicas, each with its own pool, on one PostgreSQL database (the URL in
/// `EXECUTOR_TEST_POSTGRES`; `.ci/fleet-peer.sh` sets it): a task created on one is read,
/// finished and cancelled through the other, and a task past its TTL is gone from both.
#[cfg(feature = "task-postgres")]
#[tokio::test]
#[ignore = "needs EXECUTOR_TEST_POSTGRES (a PostgreSQL URL); run by .ci/fleet-peer.sh"]
async fn two_replicas_on_postgres_read_finish_and_cancel_each_others_tasks() {
    use tool_executor::task::PostgresTaskStore;
    let url = std::env::var("EXECUTOR_TEST_POSTGRES").expect("EXECUTOR_TEST_POSTGRES");
    let replica = || async {
        let store = PostgresTaskStore::connect(&url).await.expect("PostgreSQL");
        serve_http(server().with_tasks(Tasks::new(store))).await
    };
    let (one, stop_one) = replica().await;
    let (two, stop_two) = replica().await;
    across_replicas(one, two, "postgres").await;

    let params = json!({"name": "brief", "arguments": {}, "_meta": meta(true)});
    let id = created(&post(one, "tools/call", "brief", params).await, 300, 20);
    let gone = tokio::time::timeout(WAIT, async {
        loop {
            let params = json!({"taskId": id, "_meta": meta(true)});
            let reply = post(two, "tasks/get", &id, params).await;
            if reply.get("error").is_some() {
                return reply;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await
    .expect("the task expires");
    assert_eq!(gone["error"]["code"], -32602, "{gone}");
    stop_one.cancel();
    stop_two.cancel();
}

// ---- The 2025-11-25 form: `params.task`, `execution.taskSupport`, `tasks/result`, `tasks/list`,
// `notifications/tasks/status` (`mcp/tasks_legacy.rs`), on the same tasks.

/// A 2025-11-25 stdio session that keeps the notifications it reads past.
struct Legacy {
    write: tokio::io::WriteHalf<tokio::io::DuplexStream>,
    lines: tokio::io::Lines<tokio::io::BufReader<tokio::io::ReadHalf<tokio::io::DuplexStream>>>,
    notifications: Vec<Value>,
    next_id: i64,
    /// The `initialize` result.
    initialized: Value,
}

impl Legacy {
    async fn start(server: McpServer) -> Self {
        Self::start_with(server, json!({"tasks": {"list": {}, "cancel": {}}})).await
    }

    /// A session whose client declares `capabilities`.
    async fn start_with(server: McpServer, capabilities: Value) -> Self {
        use tokio::io::AsyncBufReadExt;
        let (client, server_end) = tokio::io::duplex(1 << 20);
        let (server_read, server_write) = tokio::io::split(server_end);
        tokio::spawn(server.serve_io(server_read, server_write));
        let (read, write) = tokio::io::split(client);
        let mut session = Self {
            write,
            lines: tokio::io::BufReader::new(read).lines(),
            notifications: Vec::new(),
            next_id: 0,
            initialized: Value::Null,
        };
        let init = json!({
            "protocolVersion": "2025-11-25",
            "capabilities": capabilities,
            "clientInfo": {"name": "legacy-tasks", "version": "1"}
        });
        session.initialized = session.request("initialize", init).await["result"].clone();
        session
            .send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
            .await;
        session
    }

    async fn send(&mut self, message: &Value) {
        use tokio::io::AsyncWriteExt;
        let line = format!("{message}\n");
        self.write.write_all(line.as_bytes()).await.unwrap();
    }

    /// Sends a request and reads until its answer, keeping the notifications before it.
    async fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.send_request(method, params).await;
        self.answer(id).await
    }

    /// Sends a request without waiting for its answer; its id.
    async fn send_request(&mut self, method: &str, params: Value) -> i64 {
        self.next_id += 1;
        let id = self.next_id;
        let message = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        self.send(&message).await;
        id
    }

    async fn answer(&mut self, id: i64) -> Value {
        loop {
            let reply = self.read().await;
            if reply["id"] == json!(id) {
                return reply;
            }
            self.notifications.push(reply);
        }
    }

    async fn read(&mut self) -> Value {
        let line = tokio::time::timeout(WAIT, self.lines.next_line())
            .await
            .expect("the server answers")
            .unwrap()
            .expect("the pipe stays open");
        serde_json::from_str(&line).unwrap()
    }

    /// `notifications/tasks/status` for `id` with a terminal status, read until it comes.
    async fn status_notification(&mut self, id: &str) -> Value {
        loop {
            if let Some(n) = self.notifications.iter().find(|n| {
                n["method"] == "notifications/tasks/status" && n["params"]["taskId"] == id
            }) {
                return n.clone();
            }
            let next = self.read().await;
            self.notifications.push(next);
        }
    }
}

/// The task of a 2025-11-25 `CreateTaskResult`, after checking its shape; its id.
fn legacy_created(reply: &Value, ttl: u64, poll: u64) -> String {
    let task = &reply["result"]["task"];
    let id = task["taskId"].as_str().unwrap_or_else(|| panic!("{reply}"));
    let mut keys: Vec<&str> = task
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    keys.sort_unstable();
    assert_eq!(
        keys,
        [
            "createdAt",
            "lastUpdatedAt",
            "pollInterval",
            "status",
            "taskId",
            "ttl"
        ],
        "{reply}"
    );
    assert_eq!(
        reply["result"].as_object().unwrap().len(),
        1,
        "only `task`: {reply}"
    );
    assert_eq!(
        (&task["status"], &task["ttl"], &task["pollInterval"]),
        (&json!("working"), &json!(ttl), &json!(poll)),
        "{reply}"
    );
    id.to_owned()
}

#[tokio::test]
async fn legacy_initialize_declares_tasks_and_tools_list_says_which_tools_are_tasks() {
    let mut legacy = Legacy::start(server()).await;
    assert_eq!(
        legacy.initialized["capabilities"]["tasks"],
        json!({"list": {}, "cancel": {}, "requests": {"tools": {"call": {}}}}),
        "{}",
        legacy.initialized
    );
    let listed = legacy.request("tools/list", json!({})).await;
    let support: Vec<(String, Value)> = listed["result"]["tools"]
        .as_array()
        .unwrap_or_else(|| panic!("{listed}"))
        .iter()
        .map(|t| {
            (
                t["name"].as_str().unwrap().to_owned(),
                t["execution"].clone(),
            )
        })
        .collect();
    let expect = |s: &str| json!({"taskSupport": s});
    assert_eq!(
        support,
        [
            ("report".to_owned(), expect("required")),
            ("add".to_owned(), expect("optional")),
            ("hang".to_owned(), expect("required")),
            ("refuse".to_owned(), expect("required")),
            ("brief".to_owned(), expect("required")),
            ("held".to_owned(), expect("required")),
            ("steps".to_owned(), expect("required")),
            ("delete_note".to_owned(), expect("required")),
            ("plain".to_owned(), expect("forbidden")),
        ]
    );
    assert_eq!(listed["result"].get("resultType"), None, "{listed}");

    // A server without task tools declares nothing, lists no `execution`, and leaves
    // `tasks/*` unknown.
    let mut plain = Legacy::start(tool_executor::mcp_server!(toolset![plain])).await;
    assert_eq!(plain.initialized["capabilities"].get("tasks"), None);
    let listed = plain.request("tools/list", json!({})).await;
    assert_eq!(
        listed["result"]["tools"][0].get("execution"),
        None,
        "{listed}"
    );
    let reply = plain
        .request("tasks/get", json!({"taskId": "0".repeat(32)}))
        .await;
    assert_eq!(reply["error"]["code"], -32601, "{reply}");
}

#[tokio::test]
async fn legacy_task_call_then_get_result_list_and_a_status_notification() {
    let mut legacy = Legacy::start(server()).await;
    let params = json!({"name": "add", "arguments": {"a": 1, "b": 2}, "task": {"ttl": 60_000}});
    let id = legacy_created(&legacy.request("tools/call", params).await, 60_000, 20);

    // `tasks/result` blocks until the task ends, then answers what the call would have.
    let result = legacy.request("tasks/result", json!({"taskId": id})).await;
    assert_eq!(
        result["result"],
        json!({
            "content": [{"type": "text", "text": "3"}],
            "structuredContent": {"result": 3},
            "isError": false,
            "_meta": {"io.modelcontextprotocol/related-task": {"taskId": id}}
        }),
        "{result}"
    );
    let got = legacy.request("tasks/get", json!({"taskId": id})).await;
    let task = &got["result"];
    assert_eq!(
        (
            &task["taskId"],
            &task["status"],
            &task["ttl"],
            &task["pollInterval"]
        ),
        (&json!(id), &json!("completed"), &json!(60_000), &json!(20)),
        "{got}"
    );
    assert_eq!(
        task.get("result"),
        None,
        "tasks/get carries no result: {got}"
    );

    let note = legacy.status_notification(&id).await;
    assert_eq!(note["params"]["status"], "completed", "{note}");
    assert_eq!(note["params"]["ttl"], 60_000, "{note}");

    // The client's ttl is kept within the tool's: `add` sets none, so the server's 5 min.
    let params = json!({"name": "add", "arguments": {"a": 2, "b": 2}, "task": {"ttl": 86_400_000}});
    let second = legacy_created(&legacy.request("tools/call", params).await, 86_400_000, 20);
    let listed = legacy.request("tasks/list", json!({})).await;
    let ids: Vec<&str> = listed["result"]["tasks"]
        .as_array()
        .unwrap_or_else(|| panic!("{listed}"))
        .iter()
        .map(|t| t["taskId"].as_str().unwrap())
        .collect();
    assert_eq!(ids, [id.as_str(), second.as_str()], "{listed}");
    assert_eq!(listed["result"].get("nextCursor"), None);
    let bad = legacy.request("tasks/list", json!({"cursor": "x"})).await;
    assert_eq!(bad["error"]["code"], -32602, "{bad}");

    // Another session lists none of them.
    let mut other = Legacy::start(server()).await;
    let listed = other.request("tasks/list", json!({})).await;
    assert_eq!(listed["result"], json!({"tasks": []}), "{listed}");
}

#[tokio::test]
async fn legacy_calls_without_a_task_or_with_one_where_none_runs_are_minus_32601() {
    let mut legacy = Legacy::start(server()).await;
    let reply = legacy
        .request(
            "tools/call",
            json!({"name": "report", "arguments": {"title": "x"}}),
        )
        .await;
    assert_eq!(
        reply["error"],
        json!({
            "code": -32601,
            "message": "tool `report` runs only as a task: call it with `params.task`"
        })
    );
    let params = json!({"name": "plain", "arguments": {}, "task": {}});
    let reply = legacy.request("tools/call", params).await;
    assert_eq!(
        reply["error"],
        json!({
            "code": -32601,
            "message": "tool `plain` does not run as a task: call it without `params.task`"
        })
    );
    // Without `params.task` an optional tool answers directly.
    let reply = legacy
        .request(
            "tools/call",
            json!({"name": "add", "arguments": {"a": 1, "b": 1}}),
        )
        .await;
    assert_eq!(reply["result"]["structuredContent"], json!({"result": 2}));
    let reply = legacy
        .request("tasks/get", json!({"taskId": "0".repeat(32)}))
        .await;
    assert_eq!(reply["error"]["code"], -32602, "{reply}");
    let reply = legacy.request("tasks/result", json!({"taskId": 7})).await;
    assert_eq!(
        reply["error"],
        json!({"code": -32602, "message": "`taskId` must be a string"})
    );
}

#[tokio::test]
async fn legacy_is_error_is_failed_and_its_result_is_the_tool_error() {
    let mut legacy = Legacy::start(server()).await;
    let params = json!({"name": "refuse", "arguments": {"why": "no budget"}, "task": {}});
    let id = legacy_created(&legacy.request("tools/call", params).await, 300_000, 20);
    let result = legacy.request("tasks/result", json!({"taskId": id})).await;
    assert_eq!(result["result"]["isError"], true, "{result}");
    assert_eq!(
        result["result"]["content"][0]["text"], "no budget",
        "{result}"
    );
    let got = legacy.request("tasks/get", json!({"taskId": id})).await;
    assert_eq!(
        (&got["result"]["status"], &got["result"]["statusMessage"]),
        (&json!("failed"), &json!("no budget")),
        "{got}"
    );
}

#[tokio::test]
async fn legacy_cancel_answers_the_cancelled_task_ends_a_waiting_result_and_is_final() {
    let mut legacy = Legacy::start(server()).await;
    let params = json!({"name": "held", "arguments": {"key": "legacy"}, "task": {}});
    let id = legacy_created(&legacy.request("tools/call", params).await, 300_000, 20);

    // A `tasks/result` waiting on the task, answered only once it is cancelled.
    let waiting = legacy
        .send_request("tasks/result", json!({"taskId": id}))
        .await;
    let cancelled = legacy.request("tasks/cancel", json!({"taskId": id})).await;
    assert_eq!(cancelled["result"]["status"], "cancelled", "{cancelled}");
    assert_eq!(cancelled["result"]["taskId"], id.as_str());
    until_dropped("legacy").await;
    let result = match legacy.notifications.iter().position(|n| n["id"] == waiting) {
        Some(i) => legacy.notifications.remove(i),
        None => legacy.answer(waiting).await,
    };
    assert_eq!(
        result["error"],
        json!({
            "code": -32800,
            "message": format!("task {id} was cancelled"),
            "data": {"io.modelcontextprotocol/related-task": {"taskId": id}}
        })
    );
    let again = legacy.request("tasks/cancel", json!({"taskId": id})).await;
    assert_eq!(
        again["error"],
        json!({"code": -32602, "message": format!("task {id} is already cancelled")})
    );
}

#[tokio::test]
async fn legacy_task_progress_goes_to_the_calls_progress_token() {
    let mut legacy = Legacy::start(server()).await;
    let params = json!({"name": "steps", "arguments": {}, "task": {},
        "_meta": {"progressToken": "p-1"}});
    let id = legacy_created(&legacy.request("tools/call", params).await, 300_000, 20);
    let note = legacy.status_notification(&id).await;
    assert_eq!(note["params"]["status"], "completed", "{note}");
    let progress: Vec<Value> = legacy
        .notifications
        .iter()
        .filter(|n| n["method"] == "notifications/progress")
        .map(|n| n["params"].clone())
        .collect();
    let expect = |step: u32| {
        json!({"progressToken": "p-1", "progress": f64::from(step) / 4.0, "total": 1.0,
            "message": format!("step {step} of 3")})
    };
    assert_eq!(progress, [expect(1), expect(2), expect(3)]);

    // Without a token, none.
    let params = json!({"name": "steps", "arguments": {}, "task": {}});
    let id = legacy_created(&legacy.request("tools/call", params).await, 300_000, 20);
    legacy.status_notification(&id).await;
    let all = legacy
        .notifications
        .iter()
        .filter(|n| n["method"] == "notifications/progress")
        .count();
    assert_eq!(all, 3, "only the first call's: {:?}", legacy.notifications);
}

/// A stateful HTTP session on 2025-11-25: `initialize` (the capability spliced into rmcp's
/// answer), then a task through `tools/call`, `tasks/get` and `tasks/result`.
#[tokio::test]
async fn legacy_tasks_over_stateful_http() {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let shutdown = CancellationToken::new();
    tokio::spawn(server().serve_http_on(listener, shutdown.clone()));
    let post = |session: Option<String>, id: i64, method: &'static str, params: Value| async move {
        let body = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        let body = body.to_string();
        let session = session
            .map(|s| format!("Mcp-Session-Id: {s}\r\nMCP-Protocol-Version: 2025-11-25\r\n"))
            .unwrap_or_default();
        let head = format!(
            "POST /mcp HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
             Accept: application/json, text/event-stream\r\n{session}"
        );
        Conn::connect(addr)
            .await
            .send(&head, Body::Length(body.as_bytes()))
            .await
            .unwrap()
    };
    let init = json!({
        "protocolVersion": "2025-11-25",
        "capabilities": {},
        "clientInfo": {"name": "legacy-http", "version": "1"}
    });
    let response = post(None, 1, "initialize", init).await;
    assert_eq!(response.status, 200, "{response:?}");
    let session = response
        .header("mcp-session-id")
        .expect("a session")
        .to_owned();
    let initialized = response.json();
    assert_eq!(
        initialized["result"]["capabilities"]["tasks"],
        json!({"list": {}, "cancel": {}, "requests": {"tools": {"call": {}}}}),
        "{initialized}"
    );
    assert_eq!(
        initialized["result"]["capabilities"]["tools"],
        json!({}),
        "{initialized}"
    );
    let body = json!({"jsonrpc": "2.0", "method": "notifications/initialized"}).to_string();
    let head = format!(
        "POST /mcp HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nMcp-Session-Id: {session}\r\n\
         MCP-Protocol-Version: 2025-11-25\r\n"
    );
    let sent = Conn::connect(addr)
        .await
        .send(&head, Body::Length(body.as_bytes()))
        .await
        .unwrap();
    assert_eq!(sent.status, 202, "{sent:?}");

    let params = json!({"name": "add", "arguments": {"a": 5, "b": 6}, "task": {"ttl": 1_000}});
    let created = post(Some(session.clone()), 2, "tools/call", params)
        .await
        .json();
    let id = legacy_created(&created, 1_000, 20);
    let result = post(
        Some(session.clone()),
        3,
        "tasks/result",
        json!({"taskId": id}),
    )
    .await;
    assert_eq!(
        result.json()["result"]["structuredContent"],
        json!({"result": 11}),
        "{result:?}"
    );
    let got = post(Some(session.clone()), 4, "tasks/get", json!({"taskId": id})).await;
    assert_eq!(got.json()["result"]["status"], "completed", "{got:?}");
    let listed = post(Some(session), 5, "tasks/list", json!({})).await.json();
    assert_eq!(
        listed["result"]["tasks"][0]["taskId"],
        id.as_str(),
        "{listed}"
    );
    shutdown.cancel();
}

/// On 2025-11-25 a task's question reaches the client waiting on its `tasks/result`: an
/// `elicitation/create` in the session naming the task; the answer lets the task go on, and
/// `tasks/result` answers its result. A client that cannot be asked gets the question
/// cancelled: the task ends rather than wait for nobody.
#[tokio::test]
async fn legacy_tasks_result_puts_a_tasks_question_to_the_client() {
    let capabilities = json!({"tasks": {"list": {}, "cancel": {}}, "elicitation": {"form": {}}});
    let mut legacy = Legacy::start_with(server(), capabilities).await;
    let params = json!({"name": "delete_note", "arguments": {"id": 4}, "task": {}});
    let id = legacy_created(&legacy.request("tools/call", params).await, 300_000, 20);
    let waiting = legacy
        .send_request("tasks/result", json!({"taskId": id}))
        .await;
    let ask = loop {
        let m = legacy.read().await;
        if m["method"] == "elicitation/create" {
            break m;
        }
        legacy.notifications.push(m);
    };
    // rmcp stamps a progress token of its own on every request it sends.
    let mut params = ask["params"].clone();
    params["_meta"]
        .as_object_mut()
        .unwrap()
        .remove("progressToken");
    assert_eq!(
        params,
        json!({"mode": "form", "message": "Run delete_note with id = 4?",
               "requestedSchema": {"type": "object", "properties": {}},
               "_meta": {"io.modelcontextprotocol/related-task": {"taskId": id}}}),
        "{ask}"
    );
    let reply = json!({"jsonrpc": "2.0", "id": ask["id"], "result": {"action": "accept"}});
    legacy.send(&reply).await;
    let result = legacy.answer(waiting).await;
    assert_eq!(
        result["result"]["content"][0]["text"], "note 4 deleted",
        "{result}"
    );

    let mut unaskable = Legacy::start(server()).await;
    let params = json!({"name": "delete_note", "arguments": {"id": 5}, "task": {}});
    let id = legacy_created(&unaskable.request("tools/call", params).await, 300_000, 20);
    let result = unaskable
        .request("tasks/result", json!({"taskId": id}))
        .await;
    assert!(
        result.to_string().contains("did not approve"),
        "cancelled, so not approved: {result}"
    );
}

/// Stateless HTTP on 2025-11-25: no session, each POST on its own; a `tools/call` with
/// `params.task` creates the task, and `tasks/get` and `tasks/result` (sent with the task id in
/// `Mcp-Name`, as a balancer routes them) read it.
#[tokio::test]
async fn legacy_tasks_over_stateless_http() {
    let (addr, shutdown) = serve_http(server()).await;
    let post = |method: &'static str, name: String, params: Value| async move {
        let body = json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params});
        let body = body.to_string();
        let head = format!(
            "POST /mcp HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
             Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2025-11-25\r\n\
             Mcp-Method: {method}\r\nMcp-Name: {name}\r\n"
        );
        let response = Conn::connect(addr)
            .await
            .send(&head, Body::Length(body.as_bytes()))
            .await
            .unwrap();
        assert_eq!(response.status, 200, "{response:?}");
        response.json()
    };
    let params = json!({"name": "add", "arguments": {"a": 7, "b": 8}, "task": {"ttl": 1_000}});
    let created = post("tools/call", "add".to_owned(), params).await;
    let id = legacy_created(&created, 1_000, 20);
    let result = post("tasks/result", id.clone(), json!({"taskId": id})).await;
    assert_eq!(
        result["result"]["structuredContent"],
        json!({"result": 15}),
        "{result}"
    );
    let got = post("tasks/get", id.clone(), json!({"taskId": id})).await;
    assert_eq!(got["result"]["status"], "completed", "{got}");
    shutdown.cancel();
}
