//! A sync tool whose `timeout` fires while its body still blocks (issue 22, point 4): the call
//! ends at its terminal chunk, on time, wherever it is served. The body (`crawl`) blocks for
//! 3 s and reports progress every 50 ms; its timeout is 1 s. The stream ends with that one
//! timeout chunk (nothing after it), and an MCP client that sent a progress token gets its
//! answer at 1 s, not when the body returns; the body's `try_progress` then says `Closed`.
//!
//! The bound asserted is the timeout plus a generous slack ([`ON_TIME`]), well under the 3 s
//! the body blocks: what the tests check is which event ends the call, not a speed.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use tool_executor::prelude::*;
use tool_executor::{ChunkDropped, ToolStreamChunk};

/// How long `crawl` blocks.
const BLOCKS: Duration = Duration::from_secs(3);
/// The timeout (1 s, `crawl`'s `timeout`) plus slack for a loaded machine; `BLOCKS` is 3 s.
const ON_TIME: Duration = Duration::from_secs(2);
/// A bound on every wait, so a broken build fails instead of hanging.
const WAIT: Duration = Duration::from_secs(10);

/// When (after its start) each `crawl` call first saw `try_progress` say `Closed`, by key.
static CLOSED_AFTER: Mutex<Option<HashMap<String, Duration>>> = Mutex::new(None);

fn closed_after(key: &str) -> Option<Duration> {
    CLOSED_AFTER.lock().unwrap().as_ref()?.get(key).copied()
}

/// Blocks its thread for 3 s, reporting progress every 50 ms without waiting; its timeout is
/// 1 s. Records when its stream first says `Closed`.
#[tool(timeout = "1s")]
fn crawl(key: &str, ctx: &ToolContext) -> &'static str {
    let start = Instant::now();
    let mut step = 0_u32;
    while start.elapsed() < BLOCKS {
        step += 1;
        let fraction = f64::from(step) / 60.0;
        if ctx.try_progress(fraction, format!("step {step}")) == Err(ChunkDropped::Closed) {
            CLOSED_AFTER
                .lock()
                .unwrap()
                .get_or_insert_with(HashMap::new)
                .entry(key.to_owned())
                .or_insert_with(|| start.elapsed());
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    "finished"
}

/// Adds two integers (a quick call, to show the server still answers).
#[tool]
fn add(a: i64, b: i64) -> i64 {
    a + b
}

fn tools() -> tool_executor::ToolSet {
    toolset![crawl, add]
}

/// In process: `execute_stream` read to its end. Exactly one terminal chunk, the timeout, is
/// the last; it and the end of the stream come at 1 s; the body then sees `Closed`.
#[tokio::test]
async fn a_timed_out_sync_stream_ends_at_its_one_terminal_chunk() {
    let started = Instant::now();
    let mut rx = tools()
        .execute_stream("crawl", &json!({"key": "stream"}), "a-1")
        .await
        .unwrap();
    let mut chunks = Vec::new();
    let mut terminal_at = None;
    while let Some(chunk) = tokio::time::timeout(WAIT, rx.recv())
        .await
        .expect("the stream stalled")
    {
        if chunk.is_terminal() && terminal_at.is_none() {
            terminal_at = Some(started.elapsed());
        }
        chunks.push(chunk);
    }
    let ended_at = started.elapsed();
    let terminal_at = terminal_at.expect("a terminal chunk");
    let terminals: Vec<&ToolStreamChunk> = chunks.iter().filter(|c| c.is_terminal()).collect();
    let after = chunks
        .iter()
        .skip_while(|c| !c.is_terminal())
        .skip(1)
        .count();
    assert_eq!(
        terminals.len(),
        1,
        "one terminal chunk; {after} chunks after the first, the stream ended at {ended_at:?}"
    );
    assert_eq!(
        after, 0,
        "nothing after the terminal chunk (it came at {terminal_at:?}, the stream ended at \
         {ended_at:?})"
    );
    let last = serde_json::to_value(chunks.last().unwrap()).unwrap();
    assert_eq!(last["kind"], "error", "{last}");
    assert_eq!(last["code"], "timeout", "{last}");
    assert!(
        terminal_at < ON_TIME,
        "the timeout chunk came at {terminal_at:?}"
    );
    assert!(ended_at < ON_TIME, "the stream ended at {ended_at:?}");
    // The body, still blocking, is told its reader is gone.
    let deadline = Instant::now() + WAIT;
    while closed_after("stream").is_none() && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let closed = closed_after("stream").expect("try_progress said Closed while the body ran");
    assert!(closed < ON_TIME, "Closed first seen at {closed:?}");
}

#[cfg(feature = "mcp")]
mod stdio {
    use std::time::{Duration, Instant};

    use serde_json::{Value, json};
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

    use super::{ON_TIME, WAIT, tools};

    /// A raw JSON-RPC line exchange with `McpServer` over an in-memory pipe.
    struct Wire {
        write: tokio::io::WriteHalf<tokio::io::DuplexStream>,
        read: tokio::io::Lines<BufReader<tokio::io::ReadHalf<tokio::io::DuplexStream>>>,
    }

    impl Wire {
        fn start() -> Self {
            let (client, server_end) = tokio::io::duplex(1 << 20);
            let (server_read, server_write) = tokio::io::split(server_end);
            let server = tool_executor::mcp_server!(tools());
            tokio::spawn(server.serve_io(server_read, server_write));
            let (read, write) = tokio::io::split(client);
            Self {
                write,
                read: BufReader::new(read).lines(),
            }
        }

        async fn send(&mut self, message: Value) {
            let line = format!("{message}\n");
            self.write.write_all(line.as_bytes()).await.unwrap();
        }

        async fn next(&mut self) -> Value {
            let line = tokio::time::timeout(WAIT, self.read.next_line())
                .await
                .expect("the server answers")
                .unwrap()
                .expect("the server keeps the pipe open");
            serde_json::from_str(&line).unwrap()
        }

        /// The response to `id` and the notifications that came before it.
        async fn response(&mut self, id: i64) -> (Value, Vec<Value>) {
            let mut notifications = Vec::new();
            loop {
                let message = self.next().await;
                if message.get("id") == Some(&json!(id)) {
                    return (message, notifications);
                }
                notifications.push(message);
            }
        }
    }

    /// With a progress token, the sync tool's timeout answers the call at 1 s (it answered
    /// when the body returned, at 3 s); no progress for the call follows its answer.
    #[tokio::test]
    async fn a_timed_out_sync_call_with_a_progress_token_is_answered_on_time() {
        let mut wire = Wire::start();
        let init = json!({
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "deadline-test", "version": "1"}
        });
        wire.send(json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": init}))
            .await;
        wire.response(0).await;
        wire.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
            .await;

        let started = Instant::now();
        let params = json!({
            "name": "crawl",
            "arguments": {"key": "stdio"},
            "_meta": {"progressToken": "tok-1"}
        });
        wire.send(json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params}))
            .await;
        let (reply, before) = wire.response(1).await;
        let answered = started.elapsed();
        assert!(
            answered < ON_TIME,
            "answered after {answered:?} ({} progress notifications first)",
            before.len()
        );
        assert_eq!(reply["result"]["isError"], true, "{reply}");
        assert_eq!(
            reply["result"]["_meta"]["executor/failure"]["code"], "timeout",
            "{reply}"
        );
        assert!(
            !before.is_empty(),
            "progress was forwarded while the call ran"
        );

        // Nothing more about call 1: the next line after a pause is the answer to 2.
        tokio::time::sleep(Duration::from_millis(500)).await;
        let add = json!({"name": "add", "arguments": {"a": 1, "b": 2}});
        wire.send(json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": add}))
            .await;
        let (reply, late) = wire.response(2).await;
        assert_eq!(reply["result"]["structuredContent"], json!({"result": 3}));
        assert!(late.is_empty(), "notifications after the answer: {late:?}");
    }
}

#[cfg(feature = "mcp-http")]
mod http {
    use std::time::Instant;

    use serde_json::json;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    use tokio::net::{TcpListener, TcpStream};
    use tokio_util::sync::CancellationToken;
    use tool_executor::mcp::{McpServerConfig, McpToolExecutor};
    use tool_executor::{FailureKind, ToolExecutor};

    use super::{ON_TIME, WAIT, tools};

    async fn serve(stateless: bool) -> (std::net::SocketAddr, CancellationToken) {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let shutdown = CancellationToken::new();
        let server = tool_executor::mcp_server!(tools()).with_stateless_http(stateless);
        tokio::spawn(server.serve_http_on(listener, shutdown.clone()));
        (addr, shutdown)
    }

    /// Stateless streamable HTTP, raw: the answer (an SSE event, as progress came first)
    /// arrives at 1 s.
    #[tokio::test]
    async fn a_timed_out_sync_call_over_stateless_http_is_answered_on_time() {
        let (addr, shutdown) = serve(true).await;
        let body = json!({
            "jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": "crawl", "arguments": {"key": "http"}, "_meta": {"progressToken": 1}}
        })
        .to_string();
        let request = format!(
            "POST /mcp HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
             Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2025-11-25\r\n\
             Content-Length: {}\r\n\r\n{body}",
            body.len()
        );
        let started = Instant::now();
        let mut stream = TcpStream::connect(addr).await.unwrap();
        stream.write_all(request.as_bytes()).await.unwrap();
        let mut seen = Vec::new();
        tokio::time::timeout(WAIT, async {
            let mut buf = [0; 4096];
            while !String::from_utf8_lossy(&seen).contains(r#""isError":true"#) {
                let n = stream.read(&mut buf).await.unwrap();
                assert!(n > 0, "closed early: {}", String::from_utf8_lossy(&seen));
                seen.extend_from_slice(&buf[..n]);
            }
        })
        .await
        .expect("an answer");
        let answered = started.elapsed();
        let seen = String::from_utf8_lossy(&seen);
        assert!(answered < ON_TIME, "answered after {answered:?}");
        assert!(seen.contains(r#""code":"timeout""#), "{seen}");
        shutdown.cancel();
    }

    /// `McpToolExecutor` (which always sends a progress token) against our server: the
    /// timeout failure comes back at 1 s.
    #[tokio::test]
    async fn a_timed_out_sync_call_through_mcp_tool_executor_fails_on_time() {
        let (addr, shutdown) = serve(false).await;
        let config = McpServerConfig::http("demo", format!("http://{addr}/mcp"));
        let executor = tokio::time::timeout(WAIT, McpToolExecutor::connect(config))
            .await
            .unwrap()
            .unwrap();
        let params = json!({"key": "client"});
        let started = Instant::now();
        let call =
            executor.execute_with_context("crawl", &params, tool_executor::ToolContext::new());
        let failure = tokio::time::timeout(WAIT, call)
            .await
            .expect("an answer")
            .expect_err("the tool timed out");
        let answered = started.elapsed();
        assert!(answered < ON_TIME, "failed after {answered:?}: {failure:?}");
        assert_eq!(failure.code(), "timeout", "{failure:?}");
        assert_eq!(failure.kind(), FailureKind::Timeout, "{failure:?}");
        shutdown.cancel();
    }
}
