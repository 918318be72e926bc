//! Streamable HTTP limits that say what they limit: sessions (`with_max_sessions`) bound only
//! requests that open one, requests in flight have their own bound (`with_max_in_flight`),
//! `Retry-After` says how long the wait really is, and an oversized body gets 413 naming the
//! limit on a connection that stays usable. Raw HTTP/1.1 on loopback.
#![cfg(feature = "mcp-http")]

mod http_wire;

use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use http_wire::{Body, Conn, WAIT};
use serde_json::{Value, json};
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;
use tool_executor::mcp::McpServer;
use tool_executor::prelude::*;

/// `hang` calls that have started (each test that uses it counts its own).
static HANGING: AtomicUsize = AtomicUsize::new(0);

/// Adds two integers.
#[tool]
fn add(a: i64, b: i64) -> i64 {
    a + b
}

/// Progress messages `flood` has handed over.
static FLOODED: AtomicUsize = AtomicUsize::new(0);

/// The text of each of `flood`'s progress messages.
const FLOOD_TEXT: usize = 20_000;

/// Reports `count` progress messages of 20 kB each.
#[tool]
async fn flood(count: u64, ctx: &ToolContext) -> u64 {
    let text = "x".repeat(FLOOD_TEXT);
    for i in 0..count {
        #[allow(clippy::cast_precision_loss)] // counts stay far below 2^52
        ctx.progress(i as f64 / count as f64, text.clone()).await;
        FLOODED.fetch_add(1, Ordering::SeqCst);
    }
    count
}

/// Waits until its future is dropped.
#[tool]
async fn hang() -> String {
    HANGING.fetch_add(1, Ordering::SeqCst);
    std::future::pending::<()>().await;
    unreachable!()
}

async fn serve(server: McpServer) -> (SocketAddr, CancellationToken) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let shutdown = CancellationToken::new();
    tokio::spawn(server.serve_http_on(listener, shutdown.clone()));
    (addr, shutdown)
}

fn server() -> McpServer {
    tool_executor::mcp_server!(toolset![add, hang, flood])
}

fn post_head(addr: SocketAddr, extra: &str) -> String {
    format!(
        "POST /mcp HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\n{extra}"
    )
}

async fn post(conn: &mut Conn, addr: SocketAddr, extra: &str, body: &Value) -> http_wire::Response {
    let body = body.to_string();
    conn.send(&post_head(addr, extra), Body::Length(body.as_bytes()))
        .await
        .unwrap()
}

fn initialize() -> Value {
    json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "limits", "version": "1"}}})
}

/// A 2026-07-28 `tools/call`: no session, its version in `_meta` and the SEP-2243 headers.
async fn call_2026(addr: SocketAddr, name: &str, arguments: Value) -> http_wire::Response {
    let body = json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {
    "name": name, "arguments": arguments,
    "_meta": {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "limits", "version": "1"}
    }}});
    let extra = format!(
        "MCP-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/call\r\nMcp-Name: {name}\r\n"
    );
    post(&mut Conn::connect(addr).await, addr, &extra, &body).await
}

/// A 2025-11-25 `tools/call` with no session, as a stateless server takes it.
fn stateless_call(name: &str, arguments: &Value) -> Value {
    json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
           "params": {"name": name, "arguments": arguments}})
}

/// Starts `n` `hang` calls on connections of their own and waits until all have started.
async fn hold(addr: SocketAddr, n: usize) -> Vec<tokio::task::JoinHandle<()>> {
    let before = HANGING.load(Ordering::SeqCst);
    let held: Vec<_> = (0..n)
        .map(|_| {
            tokio::spawn(async move {
                let mut conn = Conn::connect(addr).await;
                let extra = "MCP-Protocol-Version: 2025-06-18\r\n";
                let _ = post(&mut conn, addr, extra, &stateless_call("hang", &json!({}))).await;
            })
        })
        .collect();
    let started = tokio::time::timeout(WAIT, async {
        while HANGING.load(Ordering::SeqCst) < before + n {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    })
    .await;
    assert!(
        started.is_ok(),
        "{} of {n} held calls started",
        HANGING.load(Ordering::SeqCst) - before
    );
    held
}

#[tokio::test]
async fn a_session_free_request_is_served_when_sessions_are_full() {
    let (addr, _shutdown) = serve(server().with_max_sessions(1)).await;
    let opened = post(&mut Conn::connect(addr).await, addr, "", &initialize()).await;
    assert_eq!(opened.status, 200, "{}", opened.body);
    let refused = post(&mut Conn::connect(addr).await, addr, "", &initialize()).await;
    assert_eq!(
        refused.status, 503,
        "the session cap holds: {}",
        refused.body
    );
    assert_eq!(
        refused.json()["id"],
        1,
        "the error answers the initialize it refuses"
    );

    let answer = call_2026(addr, "add", json!({"a": 2, "b": 40})).await;
    assert_eq!(answer.status, 200, "{}", answer.body);
    assert_eq!(answer.json()["result"]["structuredContent"]["result"], 42);
}

#[tokio::test]
async fn stateless_calls_are_not_capped_by_the_session_limit() {
    let (addr, _shutdown) = serve(server().with_stateless_http(true).with_max_sessions(2)).await;
    let held = hold(addr, 4).await;
    let mut conn = Conn::connect(addr).await;
    let extra = "MCP-Protocol-Version: 2025-06-18\r\n";
    let answer = post(
        &mut conn,
        addr,
        extra,
        &stateless_call("add", &json!({"a": 1, "b": 2})),
    )
    .await;
    assert_eq!(answer.status, 200, "{}", answer.body);
    assert_eq!(answer.json()["result"]["structuredContent"]["result"], 3);
    held.iter().for_each(tokio::task::JoinHandle::abort);
}

#[tokio::test]
async fn requests_in_flight_have_a_limit_of_their_own() {
    let (addr, _shutdown) = serve(server().with_stateless_http(true).with_max_in_flight(2)).await;
    let held = hold(addr, 2).await;
    let extra = "MCP-Protocol-Version: 2025-06-18\r\n";
    let call = stateless_call("add", &json!({"a": 1, "b": 2}));
    let refused = post(&mut Conn::connect(addr).await, addr, extra, &call).await;
    assert_eq!(refused.status, 503, "{}", refused.body);
    assert_eq!(
        refused.json()["id"],
        3,
        "the error answers the request it refuses"
    );
    let message = refused.json()["error"]["message"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(
        message.contains("2 requests in flight") && !message.contains("session"),
        "{message}"
    );
    let retry: u64 = refused.header("retry-after").unwrap().parse().unwrap();
    assert!(retry >= 1, "{retry}");

    // A place frees when a call ends (here: its client goes away).
    held[0].abort();
    let served = tokio::time::timeout(WAIT, async {
        loop {
            let answer = post(&mut Conn::connect(addr).await, addr, extra, &call).await;
            if answer.status == 200 {
                return answer;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await
    .expect("a place frees");
    assert_eq!(served.json()["result"]["structuredContent"]["result"], 3);
    held[1].abort();
}

#[tokio::test]
async fn retry_after_says_when_the_next_session_place_frees() {
    let idle = Duration::from_secs(60);
    let server = server()
        .with_max_sessions(1)
        .with_session_idle_timeout(idle);
    let (addr, _shutdown) = serve(server).await;
    assert_eq!(
        post(&mut Conn::connect(addr).await, addr, "", &initialize())
            .await
            .status,
        200
    );
    let refused = post(&mut Conn::connect(addr).await, addr, "", &initialize()).await;
    assert_eq!(refused.status, 503);
    let retry: u64 = refused.header("retry-after").unwrap().parse().unwrap();
    assert!(
        (50..=60).contains(&retry),
        "the only session idles out in about 60 s, Retry-After says {retry}"
    );
}

/// An oversized body, declared or chunked, gets 413 naming the limit, and the next call on
/// the same connection is answered (or the 413 said `Connection: close`).
#[tokio::test]
async fn an_oversized_body_gets_413_and_the_connection_stays_usable() {
    let (addr, _shutdown) = serve(server().with_stateless_http(true)).await;
    let extra = "MCP-Protocol-Version: 2025-06-18\r\n";
    let call = stateless_call("add", &json!({"a": 20, "b": 22}));
    let big = {
        let text = "x".repeat(24 << 20);
        stateless_call("add", &json!({"a": 1, "b": 2, "pad": text})).to_string()
    };
    for chunked in [false, true] {
        let mut conn = Conn::connect(addr).await;
        let body = if chunked {
            Body::Chunked(big.as_bytes())
        } else {
            Body::Length(big.as_bytes())
        };
        let refused = conn
            .send(&post_head(addr, extra), body)
            .await
            .unwrap_or_else(|e| panic!("chunked {chunked}: {e}"));
        assert_eq!(refused.status, 413, "chunked {chunked}: {}", refused.body);
        assert!(
            refused.body.contains("8388608-byte limit"),
            "chunked {chunked}: {}",
            refused.body
        );
        // The body was read to its end: a client that writes it all before reading met no
        // reset.
        assert!(
            !refused.write_failed,
            "chunked {chunked}: the body was cut off"
        );
        if refused.header("connection") == Some("close") {
            continue;
        }
        let next = conn
            .send(
                &post_head(addr, extra),
                Body::Length(call.to_string().as_bytes()),
            )
            .await
            .unwrap_or_else(|e| panic!("chunked {chunked}, the next call: {e}"));
        assert_eq!(next.status, 200, "chunked {chunked}: {}", next.body);
        assert_eq!(next.json()["result"]["structuredContent"]["result"], 42);
    }
}

/// rmcp already bounds a response stream its client does not read (a channel of 16 messages
/// per stream; a tool's progress waits for room): 2,000 progress messages of 20 kB (40 MB)
/// to a client that reads nothing stall after a few MiB, and all arrive once it reads.
#[tokio::test]
async fn a_response_stream_nobody_reads_holds_the_tool_back() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    const COUNT: usize = 2_000;
    let (addr, _shutdown) = serve(server().with_stateless_http(true)).await;
    let body = json!({"jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": {
        "name": "flood", "arguments": {"count": COUNT}, "_meta": {"progressToken": "p"}}})
    .to_string();
    let head = post_head(addr, "MCP-Protocol-Version: 2025-06-18\r\n");
    let request = format!("{head}Content-Length: {}\r\n\r\n{body}", body.len());
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    stream.write_all(request.as_bytes()).await.unwrap();

    // Read nothing until the tool has stopped getting its messages out for a while.
    let (mut last, mut still) = (usize::MAX, 0);
    for _ in 0..400 {
        tokio::time::sleep(Duration::from_millis(50)).await;
        let now = FLOODED.load(Ordering::SeqCst);
        if now == last {
            still += 1;
            if still == 20 {
                break;
            }
        } else {
            (last, still) = (now, 0);
        }
    }
    let handed_over = FLOODED.load(Ordering::SeqCst);
    let held_mib = (handed_over * FLOOD_TEXT) >> 20;
    eprintln!(
        "progress handed over while the client read nothing: {handed_over} of {COUNT} ({held_mib} MiB)"
    );
    assert!(
        handed_over < COUNT / 4,
        "{handed_over} of {COUNT} messages went out"
    );

    // Read it all: every message arrives, then the result.
    let mut received = Vec::new();
    let mut buf = vec![0; 256 * 1024];
    tokio::time::timeout(WAIT, async {
        // Until the chunked body's last chunk (the connection stays open).
        while !received.ends_with(b"\r\n0\r\n\r\n") {
            let n = stream.read(&mut buf).await.unwrap();
            assert!(n > 0, "the connection closed early");
            received.extend_from_slice(&buf[..n]);
        }
    })
    .await
    .expect("the stream ends");
    let text = String::from_utf8_lossy(&received);
    assert_eq!(text.matches("notifications/progress").count(), COUNT);
    assert!(
        text.contains(&format!(r#""structuredContent":{{"result":{COUNT}}}"#)),
        "{:.300}",
        &text[text.len().saturating_sub(300)..]
    );
}
