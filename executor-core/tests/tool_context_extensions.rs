//! Typed context extensions: one tool reads the same `Principal` (and the values a transport
//! attaches) whether it is called directly, through a `Runtime` that retries it, from a
//! provider loop, over MCP stdio and HTTP, or as an A2A agent; a missing one is a typed
//! failure.
#![allow(clippy::result_large_err)] // tools return `ToolFailure` as is

#[cfg(feature = "a2a")]
mod a2a_support;
#[cfg(feature = "mcp")]
mod stdio_support;

use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use serde_json::{Value, json};
use tool_executor::auth::Principal;
use tool_executor::prelude::*;
use tool_executor::provider::Provider;
use tool_executor::runtime::{CallOptions, RetryPolicy, Runtime};
use tool_executor::tool::{Extensions, RequestHeaders};

/// Says who is calling: the principal's subject and scopes.
#[tool]
fn whoami(ctx: &ToolContext) -> Result<Value, ToolFailure> {
    let user = ctx.require_extension::<Principal>()?;
    Ok(json!({"subject": user.subject(), "scopes": user.scopes()}))
}

/// What the transport attached besides a principal: the `x-tenant` header and `_meta.trace`.
#[tool]
fn request_info(ctx: &ToolContext) -> Value {
    let tenant = ctx
        .extension::<RequestHeaders>()
        .and_then(|h| h.get("x-tenant"));
    #[cfg(feature = "mcp")]
    let trace = ctx
        .extension::<tool_executor::mcp::RequestMeta>()
        .and_then(|m| m.get("trace"))
        .cloned();
    #[cfg(not(feature = "mcp"))]
    let trace: Option<Value> = None;
    let secret = ctx
        .extension::<RequestHeaders>()
        .and_then(|h| h.get("x-secret"));
    json!({
        "tenant": tenant,
        "trace": trace,
        "secret": secret,
        "principal": ctx.extension::<Principal>().map(Principal::subject),
    })
}

static FLAKY_CALLS: AtomicU32 = AtomicU32::new(0);

/// Fails its first attempt, then says who called it on which attempt.
#[tool(idempotent)]
fn flaky_whoami(ctx: &ToolContext) -> Result<Value, ToolFailure> {
    let user = ctx.require_extension::<Principal>()?.subject().to_owned();
    if FLAKY_CALLS.fetch_add(1, Ordering::SeqCst) == 0 {
        return Err(ToolFailure::ordinary("busy"));
    }
    Ok(json!({"subject": user, "attempt": ctx.attempt()}))
}

fn alice() -> Principal {
    Principal::new("alice").with_scopes(["notes:read", "notes:write"])
}

#[tokio::test]
async fn a_tool_reads_the_principal_its_caller_attached() {
    let tools = toolset![whoami];
    let ctx = ToolContext::new().with_extension(alice());
    let out = tools
        .execute_with_context("whoami", &json!({}), ctx)
        .await
        .unwrap();
    assert_eq!(
        out.output,
        json!({"subject": "alice", "scopes": ["notes:read", "notes:write"]})
    );
}

#[tokio::test]
async fn a_missing_extension_is_a_terminal_failure_naming_the_type() {
    let tools = toolset![whoami];
    let failure = tools
        .execute_with_context("whoami", &json!({}), ToolContext::new())
        .await
        .unwrap_err();
    assert_eq!(failure.code(), "missing_extension");
    assert!(failure.is_terminal());
    assert!(
        failure
            .message()
            .contains("tool_executor::auth::principal::Principal"),
        "{}",
        failure.message()
    );
    assert_eq!(
        failure.data(),
        Some(&json!({"extension": "tool_executor::auth::principal::Principal"}))
    );
}

#[tokio::test]
async fn a_runtime_gives_every_attempt_the_callers_extensions() {
    let runtime = Runtime::new(toolset![flaky_whoami])
        .with_retry(RetryPolicy::exponential(Duration::from_millis(1)));
    // Through the runtime's own options…
    FLAKY_CALLS.store(0, Ordering::SeqCst);
    let options = CallOptions::new().with_extension(alice());
    let out = runtime
        .call_with("flaky_whoami", &json!({}), options)
        .await
        .unwrap();
    assert_eq!(out.output, json!({"subject": "alice", "attempt": 2}));
    // …and as an executor handed a context (what a server in front of it does).
    FLAKY_CALLS.store(0, Ordering::SeqCst);
    let ctx = ToolContext::new().with_extension(Principal::new("bob"));
    let out = runtime
        .execute_with_context("flaky_whoami", &json!({}), ctx)
        .await
        .unwrap();
    assert_eq!(out.output, json!({"subject": "bob", "attempt": 2}));
}

#[tokio::test]
async fn a_provider_loop_answers_with_the_principal_it_was_given() {
    let tools = toolset![whoami];
    let defs = tools.definitions(Provider::OpenAiChat).unwrap();
    let response = json!({"choices": [{"message": {"tool_calls": [{
        "id": "call_1", "type": "function",
        "function": {"name": "whoami", "arguments": "{}"}
    }]}}]});
    let mut extensions = Extensions::new();
    extensions.insert(alice());
    let answer = defs
        .answer_with(&tools, &response, &extensions)
        .await
        .unwrap();
    let messages = answer.messages();
    let content: Value = serde_json::from_str(messages[0]["content"].as_str().unwrap()).unwrap();
    assert_eq!(content["subject"], "alice");
    // Without extensions the same call is the typed failure, answered to the model.
    let answer = defs.answer(&tools, &response).await.unwrap();
    let text = answer.messages()[0]["content"].as_str().unwrap().to_owned();
    assert!(text.contains("missing_extension"), "{text}");
}

#[cfg(feature = "mcp")]
mod mcp {
    use super::*;
    use stdio_support::StdioClient;
    use tool_executor::mcp::McpServer;

    /// Calls `tool` with `_meta` on a stdio server and returns the result.
    async fn call_stdio(server: McpServer, tool: &str, meta: Value) -> Value {
        let mut client = StdioClient::start(server, "extensions-test").await;
        client.call(1, tool, json!({}), meta).await
    }

    #[tokio::test]
    async fn a_stdio_server_gives_every_call_its_extensions_and_the_request_meta() {
        let server = McpServer::new(toolset![whoami, request_info]).with_extension(alice());
        let result = call_stdio(server.clone(), "whoami", json!({})).await;
        assert_eq!(result["isError"], false, "{result}");
        // A `Value` result is wrapped: its schema does not promise an object.
        assert_eq!(result["structuredContent"]["result"]["subject"], "alice");

        let result = call_stdio(server, "request_info", json!({"trace": "t-1"})).await;
        assert_eq!(
            result["structuredContent"]["result"],
            json!({"tenant": null, "trace": "t-1", "secret": null, "principal": "alice"})
        );
    }

    #[tokio::test]
    async fn a_stdio_server_without_a_principal_answers_the_typed_failure() {
        let result = call_stdio(McpServer::new(toolset![whoami]), "whoami", json!({})).await;
        assert_eq!(result["isError"], true);
        assert_eq!(
            result["_meta"]["executor/failure"]["code"], "missing_extension",
            "{result}"
        );
    }

    #[cfg(feature = "mcp-http")]
    #[tokio::test]
    async fn an_http_server_forwards_only_the_allow_listed_headers() {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        use tokio::net::{TcpListener, TcpStream};
        use tokio_util::sync::CancellationToken;

        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let shutdown = CancellationToken::new();
        let server = McpServer::new(toolset![request_info])
            .with_stateless_http(true)
            .with_forwarded_headers(["X-Tenant"]);
        tokio::spawn(server.serve_http_on(listener, shutdown.clone()));

        let body = json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {
            "name": "request_info", "arguments": {}, "_meta": {"trace": "t-9"}}})
        .to_string();
        let request = format!(
            "POST /mcp HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
             Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2025-11-25\r\n\
             Mcp-Method: tools/call\r\nMcp-Name: request_info\r\n\
             X-Tenant: acme\r\nX-Secret: hunter2\r\nConnection: close\r\n\
             Content-Length: {}\r\n\r\n{body}",
            body.len()
        );
        let mut stream = TcpStream::connect(addr).await.unwrap();
        stream.write_all(request.as_bytes()).await.unwrap();
        let mut raw = String::new();
        tokio::time::timeout(Duration::from_secs(10), stream.read_to_string(&mut raw))
            .await
            .expect("the server answers")
            .unwrap();
        shutdown.cancel();
        let body = raw.split_once("\r\n\r\n").expect("an HTTP response").1;
        let json_start = body.find('{').expect("a JSON body");
        let json_end = body.rfind('}').expect("a JSON body");
        let response: Value = serde_json::from_str(&body[json_start..=json_end]).unwrap();
        assert_eq!(
            response["result"]["structuredContent"]["result"],
            json!({"tenant": "acme", "trace": "t-9", "secret": null, "principal": null}),
            "{raw}"
        );
    }
}

#[cfg(feature = "a2a")]
#[tokio::test]
async fn an_a2a_agent_forwards_only_the_allow_listed_headers() {
    use a2a_support::{V1, request, send_params};
    use tool_executor::agent::{AgentServer, ToolAgent};

    let agent = ToolAgent::new(toolset![request_info]).with_forwarded_headers(["x-tenant"]);
    let server = AgentServer::bind("127.0.0.1:0", agent)
        .await
        .expect("bind")
        .spawn();
    let params = send_params(&json!([{ "data": { "tool": "request_info", "arguments": {} } }]));
    let body =
        json!({"jsonrpc": "2.0", "id": 1, "method": "SendMessage", "params": params}).to_string();
    let response = request(
        server.local_addr(),
        "POST",
        "/",
        &[
            V1,
            ("Content-Type", "application/json"),
            ("X-Tenant", "acme"),
            ("X-Secret", "hunter2"),
        ],
        Some(&body),
    )
    .await
    .json();
    let task = &response["result"]["task"];
    assert_eq!(
        task["status"]["state"], "TASK_STATE_COMPLETED",
        "{response}"
    );
    assert_eq!(
        task["artifacts"][0]["parts"][0]["data"],
        json!({"tenant": "acme", "trace": null, "secret": null, "principal": null})
    );
}
