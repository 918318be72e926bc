//! An SSE stream its client does not read must not grow the server: past
//! `AgentServer::with_max_pending_output` unread bytes (8 MiB) the stream ends, with a comment
//! saying why, and the client can resubscribe. Measured as the growth of this process's peak
//! memory (`/proc/self/status`, so Linux only) while an agent streams 6,000 artifacts of 20 kB
//! (120 MB) to a client that reads nothing. One test in this binary, so nothing else moves the
//! figure.
//!
//! Before the bound, the server crate held every event its reader had not taken: growth 45 MiB
//! for 2,000 events, 84 MiB for 4,000; a client reading as it went cost 19-20 MiB either way
//! (the task and its store).
#![cfg(all(target_os = "linux", feature = "a2a"))]

mod a2a_support;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use a2a_support::text_message;
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tool_executor::agent::{A2aResult, AgentServer, Emitter, EventQueueWriter, RequestContext};

const EVENTS: usize = 6_000;
const TEXT_BYTES: usize = 20_000;

/// The most this process's peak memory may grow while the stream is not read (the events
/// written are 120 MB): what a reading client costs (about 20 MiB), the 8 MiB bound, and
/// room for the allocator.
const CEILING_MIB: u64 = 48;

/// Artifacts the agent has written.
static WRITTEN: AtomicUsize = AtomicUsize::new(0);

/// Streams [`EVENTS`] versions of one text artifact of [`TEXT_BYTES`] (one artifact id, so
/// the task itself stays small and the figure is the stream's).
#[tool_executor::agent(
    name = "Flood",
    version = "1.0.0",
    streaming,
    skill(id = "flood", name = "Flood", description = "Streams many artifacts.", tags = ["flood"]),
)]
impl Flood {
    async fn execute(&self, ctx: &RequestContext, queue: &dyn EventQueueWriter) -> A2aResult<()> {
        let emit = Emitter::new(ctx, queue);
        let text = "x".repeat(TEXT_BYTES);
        for i in 0..EVENTS {
            emit.text_artifact("a", format!("{i:05}{text}")).await?;
            WRITTEN.fetch_add(1, Ordering::SeqCst);
        }
        Ok(())
    }
}
struct Flood;

fn status_kib(field: &str) -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let line = status.lines().find(|l| l.starts_with(field)).unwrap();
    line[field.len() + 1..]
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stream_nobody_reads_does_not_grow_the_server() {
    let server = AgentServer::bind("127.0.0.1:0", Flood)
        .await
        .expect("bind")
        .spawn();
    let addr = server.local_addr();
    let baseline = status_kib("VmRSS:");
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "SendStreamingMessage",
                      "params": text_message("go")})
    .to_string();
    let request = format!(
        "POST / HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         A2A-Version: 1.0\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    stream.write_all(request.as_bytes()).await.unwrap();

    // Read nothing until the agent is done writing or has stopped for a while (at most 20 s).
    let (mut last, mut still) = (usize::MAX, 0);
    for _ in 0..400 {
        tokio::time::sleep(Duration::from_millis(50)).await;
        let now = WRITTEN.load(Ordering::SeqCst);
        if now == EVENTS {
            break;
        }
        if now == last {
            still += 1;
            if still == 20 {
                break;
            }
        } else {
            (last, still) = (now, 0);
        }
    }
    // Let the server's tasks settle on what they hold.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let written = WRITTEN.load(Ordering::SeqCst);
    let peak = status_kib("VmHWM:").max(status_kib("VmRSS:"));
    let growth_mib = peak.saturating_sub(baseline) / 1024;

    // Now read what the stream still has: it ends, saying why.
    let mut received = Vec::new();
    let mut buf = vec![0; 256 * 1024];
    let ended = tokio::time::timeout(Duration::from_secs(30), async {
        while !received.ends_with(b"\r\n0\r\n\r\n") {
            let n = stream.read(&mut buf).await.unwrap();
            if n == 0 {
                break;
            }
            received.extend_from_slice(&buf[..n]);
        }
    })
    .await;
    let text = String::from_utf8_lossy(&received);
    let artifacts = text.matches("\"artifactUpdate\"").count();
    let cut = text.contains(": stream ended: the client fell more than 8388608 bytes behind");
    eprintln!(
        "artifacts written {written} of {EVENTS}; read afterwards {artifacts}; ended early: \
         {cut}; peak memory growth {growth_mib} MiB (ceiling {CEILING_MIB} MiB)"
    );
    assert!(ended.is_ok(), "the stream did not end");
    assert!(
        growth_mib < CEILING_MIB,
        "the server grew by {growth_mib} MiB for a client that read nothing"
    );
    assert!(
        artifacts == EVENTS || cut,
        "{artifacts} artifacts and no word of why the stream ended"
    );
}
