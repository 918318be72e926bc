//! `McpServer` on the wire: raw newline-delimited JSON-RPC over an in-memory pipe, so every
//! byte the server sends is checked (handshake, listing, calls, bad input, progress,
//! cancellation).
#![cfg(feature = "mcp")]

mod mcp_tools;

use std::time::Duration;

use mcp_tools::{dropped, tools};
use serde_json::{Value, json};
use tokio::io::{
    AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream, Lines, ReadHalf, WriteHalf,
};
use tool_executor::mcp::McpServer;

const WAIT: Duration = Duration::from_secs(10);

struct Wire {
    write: WriteHalf<DuplexStream>,
    read: Lines<BufReader<ReadHalf<DuplexStream>>>,
    /// Notifications seen while waiting for responses.
    notifications: Vec<Value>,
}

impl Wire {
    fn start(server: McpServer) -> Self {
        let (client, server_end) = tokio::io::duplex(1 << 20);
        let (server_read, server_write) = tokio::io::split(server_end);
        tokio::spawn(server.serve_io(server_read, server_write));
        let (read, write) = tokio::io::split(client);
        Self {
            write,
            read: BufReader::new(read).lines(),
            notifications: Vec::new(),
        }
    }

    async fn send_raw(&mut self, line: &str) {
        self.write.write_all(line.as_bytes()).await.unwrap();
        self.write.write_all(b"\n").await.unwrap();
    }

    async fn send(&mut self, message: Value) {
        self.send_raw(&message.to_string()).await;
    }

    async fn next(&mut self) -> Value {
        let line = tokio::time::timeout(WAIT, self.read.next_line())
            .await
            .expect("the server answers")
            .unwrap()
            .expect("the server keeps the pipe open");
        serde_json::from_str(&line).unwrap()
    }

    /// The response to request `id`, keeping notifications that arrive first.
    async fn response(&mut self, id: &Value) -> Value {
        loop {
            let message = self.next().await;
            if message.get("id") == Some(id) {
                return message;
            }
            assert!(
                message.get("id").is_none(),
                "a response to another request: {message}"
            );
            self.notifications.push(message);
        }
    }

    async fn request(&mut self, id: i64, method: &str, params: Value) -> Value {
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))
            .await;
        self.response(&json!(id)).await
    }

    async fn initialize(&mut self) -> Value {
        let params = json!({
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "wire-test", "version": "1"}
        });
        let init = self.request(0, "initialize", params).await;
        self.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
            .await;
        init
    }

    async fn call(&mut self, id: i64, name: &str, arguments: Value) -> Value {
        self.request(
            id,
            "tools/call",
            json!({"name": name, "arguments": arguments}),
        )
        .await
    }
}

fn server() -> McpServer {
    tool_executor::mcp_server!(tools())
}

fn text(result: &Value) -> &str {
    result["result"]["content"][0]["text"].as_str().unwrap()
}

/// A failed call's details, from `_meta`.
fn failure(result: &Value) -> &Value {
    &result["result"]["_meta"]["executor/failure"]
}

/// The per-request `_meta` of protocol 2026-07-28.
fn meta_2026() -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "wire-test", "version": "1"}
    })
}

#[tokio::test]
async fn discover_offers_2026_07_28_and_its_requests_need_no_handshake() {
    let mut wire = Wire::start(server());
    let reply = wire
        .request(1, "server/discover", json!({"_meta": meta_2026()}))
        .await;
    let result = &reply["result"];
    assert!(
        result["supportedVersions"]
            .as_array()
            .is_some_and(|v| v.contains(&json!("2026-07-28")) && v.contains(&json!("2025-11-25"))),
        "{reply}"
    );
    assert_eq!(
        result["_meta"]["io.modelcontextprotocol/serverInfo"],
        json!({"name": "tool-executor", "version": env!("CARGO_PKG_VERSION")})
    );
    assert!(result["capabilities"]["tools"].is_object(), "{reply}");
    assert_eq!(result["resultType"], "complete");
    assert_eq!(
        (&result["ttlMs"], &result["cacheScope"]),
        (&json!(0), &json!("private"))
    );

    let params = json!({"name": "add", "arguments": {"a": 2, "b": 40}, "_meta": meta_2026()});
    let reply = wire.request(2, "tools/call", params).await;
    assert_eq!(
        reply["result"],
        json!({
            "content": [{"type": "text", "text": "42"}],
            "structuredContent": {"result": 42},
            "isError": false,
            "resultType": "complete"
        })
    );
}

#[tokio::test]
async fn before_initialize_a_request_without_meta_is_refused_then_the_handshake_works() {
    let mut wire = Wire::start(server());
    let reply = wire.request(1, "tools/list", json!({})).await;
    assert_eq!(reply["error"]["code"], -32600, "{reply}");
    assert_eq!(
        reply["error"]["message"],
        "`tools/list` before `initialize`: send `initialize` first"
    );

    let init = wire.initialize().await;
    assert_eq!(
        init["result"]["serverInfo"],
        json!({"name": "tool-executor", "version": env!("CARGO_PKG_VERSION")})
    );
    assert_eq!(init["result"]["protocolVersion"], "2025-06-18");
    assert!(init["result"]["capabilities"]["tools"].is_object());
    let reply = wire.call(2, "add", json!({"a": 1, "b": 1})).await;
    assert_eq!(reply["result"]["structuredContent"], json!({"result": 2}));
    assert_eq!(
        reply["result"].get("resultType"),
        None,
        "older protocol: {reply}"
    );
}

#[tokio::test]
async fn each_stdio_connection_is_a_session() {
    let server = server();
    let (mut one, mut two) = (Wire::start(server.clone()), Wire::start(server));
    one.initialize().await;
    two.initialize().await;
    let first = text(&one.call(1, "session", json!({})).await).to_owned();
    assert!(first.starts_with("stdio-"), "{first}");
    assert_eq!(
        text(&one.call(2, "session", json!({})).await),
        first,
        "stable within a connection"
    );
    assert_ne!(
        text(&two.call(1, "session", json!({})).await),
        first,
        "distinct across connections"
    );
}

#[tokio::test]
async fn the_name_and_version_are_settable_and_never_rmcp() {
    let mut wire = Wire::start(
        McpServer::new(tools())
            .with_name("calc")
            .with_version("9.9.9"),
    );
    let init = wire.initialize().await;
    assert_eq!(
        init["result"]["serverInfo"],
        json!({"name": "calc", "version": "9.9.9"})
    );
    // Without a name, the executable's name (this test binary), never rmcp's.
    let mut wire = Wire::start(McpServer::new(tools()));
    let init = wire.initialize().await;
    let name = init["result"]["serverInfo"]["name"].as_str().unwrap();
    assert!(name.starts_with("mcp_server"), "{name}");
}

#[tokio::test]
async fn tools_list_is_the_specs_in_order_with_object_roots() {
    let mut wire = Wire::start(server());
    wire.initialize().await;
    let listed = wire.request(1, "tools/list", json!({})).await;
    let tools = listed["result"]["tools"].as_array().unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        [
            "add", "echo", "forecast", "refuse", "leak", "boom", "wait", "count", "session"
        ]
    );
    for tool in tools {
        assert_eq!(tool["inputSchema"]["type"], "object", "{tool}");
        assert_eq!(tool["outputSchema"]["type"], "object", "{tool}");
    }
    assert_eq!(
        tools[0],
        json!({
            "name": "add",
            "description": "Adds two integers.",
            "inputSchema": {
                "type": "object",
                "properties": {
                    "a": {"type": "integer", "format": "int64"},
                    "b": {"type": "integer", "format": "int64"}
                },
                "required": ["a", "b"],
                "additionalProperties": false
            },
            "outputSchema": {
                "type": "object",
                "properties": {"result": {"type": "integer", "format": "int64"}},
                "required": ["result"]
            },
            "annotations": {"readOnlyHint": true, "idempotentHint": true}
        })
    );
    let forecast = &tools[2];
    assert_eq!(forecast["title"], "Forecast");
    assert_eq!(
        forecast["annotations"],
        json!({"title": "Forecast", "openWorldHint": true})
    );
    assert_eq!(
        forecast["outputSchema"]["required"],
        json!(["city", "high"])
    );
    let again = wire.request(2, "tools/list", json!({})).await;
    assert_eq!(again["result"], listed["result"], "deterministic");
}

#[tokio::test]
async fn calls_answer_structured_content_and_text() {
    let mut wire = Wire::start(server());
    wire.initialize().await;
    let reply = wire.call(1, "add", json!({"a": 2, "b": 40})).await;
    assert_eq!(
        reply["result"],
        json!({"content": [{"type": "text", "text": "42"}], "structuredContent": {"result": 42}, "isError": false})
    );
    let reply = wire.call(2, "echo", json!({"text": "hi"})).await;
    assert_eq!(
        reply["result"]["structuredContent"],
        json!({"result": "hi"})
    );
    assert_eq!(text(&reply), "hi");
    let reply = wire.call(3, "forecast", json!({"city": "Oslo"})).await;
    assert_eq!(
        reply["result"]["structuredContent"],
        json!({"city": "Oslo", "high": 21})
    );
    assert_eq!(
        serde_json::from_str::<Value>(text(&reply)).unwrap(),
        json!({"city": "Oslo", "high": 21})
    );
}

#[tokio::test]
async fn failures_are_is_error_results_and_the_server_keeps_answering() {
    let mut wire = Wire::start(server());
    wire.initialize().await;
    let reply = wire.call(1, "add", json!({"a": "two", "b": 1})).await;
    let details = json!({"code": "invalid_arguments", "kind": "invalid_arguments", "classification": "ordinary"});
    // The details ride in `_meta` and a second text block; `structuredContent` is for
    // successes (its schema is the tool's output schema).
    assert_eq!(
        reply["result"],
        json!({
            "content": [
                {"type": "text", "text": "a: expected an integer, got \"two\""},
                {"type": "text", "text": details.to_string()}
            ],
            "isError": true,
            "_meta": {"executor/failure": details}
        })
    );
    let reply = wire.call(2, "refuse", json!({})).await;
    assert_eq!(text(&reply), "not today");
    assert_eq!(failure(&reply)["classification"], "terminal");
    assert_eq!(failure(&reply)["code"], "refused");
    assert_eq!(reply["result"].get("structuredContent"), None);

    let reply = wire.call(3, "leak", json!({})).await;
    assert_eq!(text(&reply), tool_executor::failure::REDACTED_MESSAGE);
    assert!(
        !reply.to_string().contains("hunter2"),
        "redacted failures stay redacted: {reply}"
    );

    let reply = wire.call(4, "boom", json!({})).await;
    assert_eq!(reply["result"]["isError"], true);
    assert_eq!(text(&reply), "tool `boom` panicked");

    let reply = wire.call(5, "nope", json!({})).await;
    assert_eq!(reply["error"]["code"], -32602, "unknown tool: {reply}");
    let reply = wire.request(6, "prompts/get", json!({"name": "x"})).await;
    assert_eq!(reply["error"]["code"], -32601, "{reply}");
    let reply = wire.request(7, "no/such_method", json!({})).await;
    assert_eq!(reply["error"]["code"], -32601, "{reply}");

    let reply = wire.call(8, "add", json!({"a": 1, "b": 1})).await;
    assert_eq!(reply["result"]["structuredContent"], json!({"result": 2}));
}

/// A hand-written executor that panics outside any generated code.
struct Panicky;

impl tool_executor::ToolExecutor for Panicky {
    fn execute<'a>(
        &'a self,
        _tool: &'a str,
        _params: &'a Value,
    ) -> tool_executor::tool::BoxFuture<'a, Result<Value, String>> {
        Box::pin(async { panic!("hand-written executors can panic too") })
    }

    fn execute_with_context<'a>(
        &'a self,
        tool: &'a str,
        _params: &'a Value,
        _ctx: tool_executor::ToolContext,
    ) -> tool_executor::tool::BoxFuture<
        'a,
        Result<tool_executor::ToolExecution, tool_executor::ToolFailure>,
    > {
        assert!(tool != "eager", "panics before returning a future");
        Box::pin(async { panic!("panics while polled") })
    }
}

#[tokio::test]
async fn a_panicking_hand_written_executor_still_gets_an_answer() {
    let mut wire = Wire::start(McpServer::new(Panicky));
    wire.initialize().await;
    let reply = wire.call(1, "lazy", json!({})).await;
    assert_eq!(text(&reply), "tool `lazy` panicked");
    let reply = wire.call(2, "eager", json!({})).await;
    assert_eq!(text(&reply), "tool `eager` panicked");
    assert_eq!(failure(&reply)["kind"], "internal");
}

#[tokio::test]
async fn malformed_and_oversized_lines_do_not_stop_the_server() {
    let mut wire = Wire::start(server().with_max_request_bytes(4096));
    wire.initialize().await;
    wire.send_raw("this is not json {").await;
    wire.send_raw("").await;
    let reply = wire.call(1, "add", json!({"a": 1, "b": 2})).await;
    assert_eq!(
        reply["result"]["structuredContent"],
        json!({"result": 3}),
        "unparsable lines are skipped"
    );

    wire.send_raw(r#"{"jsonrpc":"2.0","id":2}"#).await;
    let reply = wire.response(&json!(2)).await;
    assert_eq!(reply["error"]["code"], -32600, "{reply}");
    wire.send_raw(r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"arguments":{}}}"#)
        .await;
    let reply = wire.response(&json!(3)).await;
    assert_eq!(
        reply["error"]["code"], -32602,
        "a tools/call without a name: {reply}"
    );
    assert_eq!(
        reply["error"]["message"],
        "invalid params for `tools/call`: missing field `name`"
    );

    let huge = "x".repeat(100_000);
    wire.send(json!({"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"name": "echo", "arguments": {"text": huge}}}))
        .await;
    let reply = wire.response(&json!(4)).await;
    assert_eq!(reply["error"]["code"], -32600);
    assert_eq!(
        reply["error"]["message"],
        "request exceeds the 4096-byte limit"
    );

    let reply = wire.call(5, "echo", json!({"text": "still here"})).await;
    assert_eq!(text(&reply), "still here");
}

#[tokio::test]
async fn progress_becomes_notifications_when_the_client_sent_a_token() {
    let mut wire = Wire::start(server());
    wire.initialize().await;
    let params =
        json!({"name": "count", "arguments": {"to": 4}, "_meta": {"progressToken": "tok-1"}});
    let reply = wire.request(1, "tools/call", params).await;
    assert_eq!(reply["result"]["structuredContent"], json!({"result": 4}));
    let progress: Vec<Value> = wire
        .notifications
        .iter()
        .map(|n| {
            assert_eq!(n["method"], "notifications/progress");
            assert_eq!(n["params"]["progressToken"], "tok-1");
            n["params"]["progress"].clone()
        })
        .collect();
    assert_eq!(
        progress,
        [json!(0.25), json!(0.5), json!(0.75), json!(1.0)],
        "all before the response"
    );
    assert_eq!(wire.notifications[0]["params"]["message"], "1 of 4");

    // Without a token: no notifications.
    wire.notifications.clear();
    let reply = wire.call(2, "count", json!({"to": 3})).await;
    assert_eq!(reply["result"]["structuredContent"], json!({"result": 3}));
    assert!(wire.notifications.is_empty(), "{:?}", wire.notifications);
}

#[tokio::test]
async fn cancelled_notifications_drop_the_running_tool() {
    let mut wire = Wire::start(server());
    wire.initialize().await;
    wire.send(json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "wait", "arguments": {"key": "wire-cancel"}}}))
        .await;
    // The tool is running (a ping round trip later); cancel it.
    let reply = wire.request(8, "ping", json!({})).await;
    assert_eq!(reply["result"], json!({}));
    wire.send(json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 7, "reason": "user"}}))
        .await;
    tokio::time::timeout(WAIT, async {
        while !dropped("wire-cancel") {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    })
    .await
    .expect("the tool's future was dropped");
    // Cancelling again, or something unknown, changes nothing; calls still work and the
    // cancelled request gets no response (the next line is the answer to 9).
    wire.send(
        json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 7}}),
    )
    .await;
    wire.send(json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 12345}}))
        .await;
    let reply = wire.call(9, "add", json!({"a": 1, "b": 1})).await;
    assert_eq!(reply["result"]["structuredContent"], json!({"result": 2}));
}
