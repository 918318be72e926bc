//! `McpServer::with_stateless_http`: streamable HTTP served POST by POST (rmcp's stateless
//! mode), checked with raw HTTP/1.1 on a loopback socket so every header is visible: no
//! session, JSON answers for plain calls, SSE when the tool reports progress, and a response
//! the client stops reading drops the tool's future.
#![cfg(feature = "mcp-http")]

mod mcp_tools;

use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use mcp_tools::{OnDrop, dropped};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio_util::sync::CancellationToken;
use tool_executor::prelude::*;

const WAIT: Duration = Duration::from_secs(10);

/// Set when `hang` has started (one test calls it).
static HANG_STARTED: AtomicBool = AtomicBool::new(false);

/// Adds two integers.
#[tool]
fn add(a: i64, b: i64) -> i64 {
    a + b
}

/// Like the demo's `slow`: reports progress, then waits (here: until its future is dropped).
#[tool]
async fn slow(key: &str, ctx: &ToolContext) -> String {
    let _guard = OnDrop(key.to_owned());
    ctx.progress(0.1, "1/10".to_owned()).await;
    std::future::pending::<()>().await;
    unreachable!()
}

/// Waits without a word until its future is dropped.
#[tool]
async fn hang(key: &str) -> String {
    let _guard = OnDrop(key.to_owned());
    HANG_STARTED.store(true, Ordering::SeqCst);
    std::future::pending::<()>().await;
    unreachable!()
}

async fn serve() -> (SocketAddr, CancellationToken) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let shutdown = CancellationToken::new();
    let server = tool_executor::mcp_server!(toolset![add, slow, hang]).with_stateless_http(true);
    tokio::spawn(server.serve_http_on(listener, shutdown.clone()));
    (addr, shutdown)
}

/// Sends one HTTP/1.1 request on a fresh connection (2025-11-25, no `initialize`, no session).
async fn send(addr: SocketAddr, method: &str, body: &Value) -> TcpStream {
    let body = body.to_string();
    let request = format!(
        "{method} /mcp HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2025-11-25\r\n\
         Content-Length: {}\r\n\r\n{body}",
        body.len()
    );
    let mut stream = TcpStream::connect(addr).await.unwrap();
    stream.write_all(request.as_bytes()).await.unwrap();
    stream
}

/// Reads from `stream` until what arrived contains `needle`; returns all of it.
async fn read_until(stream: &mut TcpStream, needle: &str) -> String {
    read_while(stream, |seen| !seen.contains(needle)).await
}

/// Reads one response with a `content-length`: its lower-cased head and its body.
async fn read_response(stream: &mut TcpStream) -> (String, String) {
    let response = read_while(stream, |seen| {
        let Some((head, body)) = seen.split_once("\r\n\r\n") else {
            return true;
        };
        let length = head.to_ascii_lowercase().lines().find_map(|l| {
            l.strip_prefix("content-length: ")?
                .trim()
                .parse::<usize>()
                .ok()
        });
        length.is_none_or(|n| body.len() < n)
    })
    .await;
    let (head, body) = response.split_once("\r\n\r\n").unwrap();
    (head.to_ascii_lowercase(), body.to_owned())
}

/// Reads from `stream` while `more` says so of what arrived (bounded by [`WAIT`]).
async fn read_while(stream: &mut TcpStream, more: impl Fn(&str) -> bool) -> String {
    let mut seen = Vec::new();
    tokio::time::timeout(WAIT, async {
        let mut buf = [0; 4096];
        while more(&String::from_utf8_lossy(&seen)) {
            let n = stream.read(&mut buf).await.unwrap();
            assert!(n > 0, "closed early: {}", String::from_utf8_lossy(&seen));
            seen.extend_from_slice(&buf[..n]);
        }
    })
    .await
    .unwrap_or_else(|_| panic!("incomplete: {}", String::from_utf8_lossy(&seen)));
    String::from_utf8(seen).unwrap()
}

/// Waits (bounded by [`WAIT`]) until `done` holds.
async fn wait_until(done: impl Fn() -> bool, what: &str) {
    tokio::time::timeout(WAIT, async {
        while !done() {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    })
    .await
    .unwrap_or_else(|_| panic!("never {what}"));
}

fn call(id: u32, tool: &str, arguments: &Value, progress: bool) -> Value {
    let mut params = json!({"name": tool, "arguments": arguments});
    if progress {
        params["_meta"] = json!({"progressToken": id});
    }
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params})
}

#[tokio::test]
async fn a_call_is_answered_as_json_without_a_session() {
    let (addr, shutdown) = serve().await;
    let mut stream = send(
        addr,
        "POST",
        &call(1, "add", &json!({"a": 2, "b": 40}), false),
    )
    .await;
    let (head, body) = read_response(&mut stream).await;
    assert!(head.starts_with("http/1.1 200"), "{head}");
    assert!(head.contains("content-type: application/json"), "{head}");
    assert!(
        !head.contains("mcp-session-id"),
        "stateless: no session: {head}"
    );
    let body: Value = serde_json::from_str(body.trim()).unwrap();
    assert_eq!(body["result"]["structuredContent"], json!({"result": 42}));

    // No session to open a server stream on or to delete.
    let mut stream = send(addr, "GET", &json!({})).await;
    let (head, _) = read_response(&mut stream).await;
    assert!(head.starts_with("http/1.1 405"), "{head}");
    shutdown.cancel();
}

#[tokio::test]
async fn progress_turns_the_answer_into_an_event_stream() {
    let (addr, shutdown) = serve().await;
    let mut stream = send(addr, "POST", &call(1, "slow", &json!({"key": "sse"}), true)).await;
    let response = read_until(&mut stream, "notifications/progress").await;
    assert!(
        response
            .to_ascii_lowercase()
            .contains("content-type: text/event-stream"),
        "{response}"
    );
    assert!(response.contains(r#""progress":0.1"#), "{response}");
    drop(stream);
    wait_until(|| dropped("sse"), "dropped `slow` after its stream closed").await;
    shutdown.cancel();
}

#[tokio::test]
async fn a_client_that_hangs_up_before_any_answer_drops_the_tool() {
    let (addr, shutdown) = serve().await;
    let stream = send(
        addr,
        "POST",
        &call(1, "hang", &json!({"key": "json"}), false),
    )
    .await;
    wait_until(|| HANG_STARTED.load(Ordering::SeqCst), "started `hang`").await;
    assert!(!dropped("json"));
    drop(stream);
    wait_until(
        || dropped("json"),
        "dropped `hang` after its client hung up",
    )
    .await;
    shutdown.cancel();
}
