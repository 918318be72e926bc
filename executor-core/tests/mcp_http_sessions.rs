//! Streamable HTTP sessions are bounded: a cap on live sessions (503 beyond it), idle
//! sessions closed after the idle timeout (which frees their place), and a foreign browser
//! `Origin` refused with 403. Raw HTTP/1.1 on loopback, so every status is seen as sent.
#![cfg(feature = "mcp-http")]

mod mcp_tools;

use std::time::Duration;

use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio_util::sync::CancellationToken;
use tool_executor::mcp::McpServer;

const WAIT: Duration = Duration::from_secs(10);

async fn serve(server: McpServer) -> (String, CancellationToken) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    let shutdown = CancellationToken::new();
    tokio::spawn(server.serve_http_on(listener, shutdown.clone()));
    (addr, shutdown)
}

/// What came back: the status, the `Mcp-Session-Id` and the start of the body.
struct Answer {
    status: u16,
    session: Option<String>,
    body: String,
}

/// POSTs an `initialize` (a new session), with `origin` if given, and reads the head and as
/// much of the body as arrives first.
async fn initialize(addr: &str, origin: Option<&str>) -> Answer {
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "sessions", "version": "1"}
    }})
    .to_string();
    let origin = origin
        .map(|o| format!("Origin: {o}\r\n"))
        .unwrap_or_default();
    let request = format!(
        "POST /mcp HTTP/1.1\r\nHost: {addr}\r\n{origin}Content-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nConnection: close\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    let mut stream = TcpStream::connect(addr).await.unwrap();
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut received = Vec::new();
    let mut buf = [0; 4096];
    // The head, then the first body bytes (an SSE stream stays open: do not wait for its end).
    tokio::time::timeout(WAIT, async {
        loop {
            let n = stream.read(&mut buf).await.unwrap();
            received.extend_from_slice(&buf[..n]);
            if n == 0 || answered(&String::from_utf8_lossy(&received)) {
                break;
            }
        }
    })
    .await
    .expect("the server answers");
    let text = String::from_utf8_lossy(&received).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").expect("an HTTP head");
    let status = head.split(' ').nth(1).unwrap().parse().unwrap();
    let session = head.lines().find_map(|line| {
        let (name, value) = line.split_once(':')?;
        name.eq_ignore_ascii_case("mcp-session-id")
            .then(|| value.trim().to_owned())
    });
    Answer {
        status,
        session,
        body: body.to_owned(),
    }
}

/// Whether the head and the whole body (by `Content-Length`) or a first SSE event are in.
fn answered(text: &str) -> bool {
    let Some((head, body)) = text.split_once("\r\n\r\n") else {
        return false;
    };
    let length = head.lines().find_map(|line| {
        let (name, value) = line.split_once(':')?;
        name.eq_ignore_ascii_case("content-length")
            .then(|| value.trim().parse::<usize>().ok())?
    });
    length.map_or(body.contains('}'), |n| body.len() >= n)
}

#[tokio::test]
async fn sessions_beyond_the_cap_get_503_and_idle_ones_free_their_place() {
    let server = tool_executor::mcp_server!(mcp_tools::tools())
        .with_max_sessions(2)
        .with_session_idle_timeout(Duration::from_millis(300));
    let (addr, _shutdown) = serve(server).await;
    for _ in 0..2 {
        let answer = initialize(&addr, None).await;
        assert_eq!(answer.status, 200, "{}", answer.body);
        assert!(answer.session.is_some());
    }
    let refused = initialize(&addr, None).await;
    assert_eq!(refused.status, 503);
    assert!(refused.session.is_none());
    let error: Value = serde_json::from_str(&refused.body).unwrap();
    assert_eq!(
        error["error"],
        json!({"code": -32000, "message": "too many MCP sessions: this server allows 2 at a \
               time; close one (DELETE with its Mcp-Session-Id) or retry later"})
    );

    // Both sessions are abandoned: once they idle out, new ones are accepted again.
    let reopened = tokio::time::timeout(WAIT, async {
        loop {
            tokio::time::sleep(Duration::from_millis(100)).await;
            if initialize(&addr, None).await.status == 200 {
                return;
            }
        }
    })
    .await;
    assert!(reopened.is_ok(), "idle sessions were never closed");
    assert_eq!(
        initialize(&addr, None).await.status,
        200,
        "the second place"
    );
    assert_eq!(
        initialize(&addr, None).await.status,
        503,
        "and the cap again"
    );
}

#[tokio::test]
async fn a_foreign_origin_is_refused_with_403() {
    let (addr, _shutdown) = serve(tool_executor::mcp_server!(mcp_tools::tools())).await;
    let foreign = initialize(&addr, Some("http://evil.example")).await;
    assert_eq!(foreign.status, 403, "{}", foreign.body);
    assert!(foreign.session.is_none());
    let local = initialize(&addr, Some("http://localhost:5173")).await;
    assert_eq!(local.status, 200, "{}", local.body);
    assert_eq!(
        initialize(&addr, None).await.status,
        200,
        "no Origin: not a browser"
    );

    let server = tool_executor::mcp_server!(mcp_tools::tools())
        .with_allowed_origins(["https://app.example:443"]);
    let (addr, _shutdown) = serve(server).await;
    let allowed = initialize(&addr, Some("https://app.example")).await;
    assert_eq!(allowed.status, 200, "{}", allowed.body);
    let local = initialize(&addr, Some("http://localhost:5173")).await;
    assert_eq!(local.status, 403, "the setting replaces the default");
}
