//! A stdio client that stops reading the server's stdout must not grow the server without
//! bound: once `McpServer::with_max_pending_output` bytes of answers wait to be written, the
//! server stops reading requests (the client's writes block on the full pipe) and answers
//! everything, each request once, when the client reads again.
//!
//! The server is a real process: this test binary started again with
//! [`CHILD`] set, which turns [`stdio_server_process`] into an MCP server on its own stdin and
//! stdout. Its memory is read from `/proc/<pid>/status` (`VmRSS`, `VmHWM`), so the test is
//! Linux-only.
#![cfg(all(target_os = "linux", feature = "mcp"))]

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tool_executor::mcp::McpServer;
use tool_executor::prelude::*;

/// Set in the environment of the server process.
const CHILD: &str = "EXECUTOR_BACKPRESSURE_CHILD";

/// Requests the client writes while it reads nothing.
const REQUESTS: usize = 2_000;

/// The text each request carries (and each answer returns, twice: as text and as
/// `structuredContent`): 2,000 answers are about 80 MB.
const TEXT_BYTES: usize = 20_000;

/// The server's bound on answers waiting to be written, in this test.
const PENDING_OUTPUT: usize = 4 * 1024 * 1024;

/// The most the server's peak resident memory may grow over its size after the handshake.
/// The bound itself is 4 MiB; the rest is room for the allocator, the requests in flight and
/// the reader's buffers. Measured: 4 MiB with the bound; 78 MiB before it existed (every
/// request taken while the client read nothing).
const CEILING_MIB: u64 = 24;

/// How long the whole exchange may take before the test names what is missing.
const WAIT: Duration = Duration::from_secs(60);

/// Returns the text it was given.
#[tool]
fn echo(text: &str) -> String {
    text.to_owned()
}

/// Not a test on its own: with [`CHILD`] set it is the server process the other test starts.
#[test]
fn stdio_server_process() {
    if std::env::var_os(CHILD).is_none() {
        return;
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let server = McpServer::new(toolset![echo])
        .with_name("backpressure")
        .with_max_pending_output(PENDING_OUTPUT);
    runtime.block_on(server.serve_stdio()).unwrap();
}

/// A `/proc/<pid>/status` field in KiB.
fn status_kib(pid: u32, field: &str) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let line = status
        .lines()
        .find(|l| l.starts_with(field))
        .unwrap_or_else(|| panic!("{field} in /proc/{pid}/status"));
    line[field.len() + 1..]
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .unwrap()
}

fn send(stdin: &mut ChildStdin, message: &Value) {
    let mut line = message.to_string();
    line.push('\n');
    stdin.write_all(line.as_bytes()).unwrap();
}

/// Reads the server's stdout on a thread. The test harness writes there too: lines without
/// JSON are skipped, and its `test stdio_server_process ... ` before the first answer cut off.
fn lines(child: &mut Child) -> mpsc::Receiver<Value> {
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = mpsc::sync_channel(0);
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { return };
            let json = line.find('{').map_or("", |at| &line[at..]);
            if let Ok(value) = serde_json::from_str::<Value>(json)
                && tx.send(value).is_err()
            {
                return;
            }
        }
    });
    rx
}

fn reply(read: &mpsc::Receiver<Value>, id: &Value) -> Value {
    loop {
        let message = read.recv_timeout(WAIT).expect("the server answers");
        if message.get("id") == Some(id) {
            return message;
        }
    }
}

fn call(id: usize, text: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
           "params": {"name": "echo", "arguments": {"text": text}}})
}

fn handshake(stdin: &mut ChildStdin, read: &mpsc::Receiver<Value>) {
    send(
        stdin,
        &json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "slow-reader", "version": "0"}}}),
    );
    reply(read, &json!(0));
    send(
        stdin,
        &json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
    );
}

/// Reads nothing until the server has taken every request (no bound) or has stopped taking
/// them for 1.5 s (the bound holds), whichever comes first, and at most 20 s; returns how many
/// requests were written meanwhile.
fn pause(written: &AtomicUsize) -> usize {
    let start = Instant::now();
    let (mut last, mut since) = (0, Instant::now());
    while start.elapsed() < Duration::from_secs(20) {
        std::thread::sleep(Duration::from_millis(100));
        let now = written.load(Ordering::Relaxed);
        if now == REQUESTS {
            // Everything is taken: give the server the same 1.5 s to answer it.
            std::thread::sleep(Duration::from_millis(1500));
            break;
        }
        if now != last {
            (last, since) = (now, Instant::now());
        } else if since.elapsed() > Duration::from_millis(1500) {
            break;
        }
    }
    written.load(Ordering::Relaxed)
}

#[test]
fn a_client_that_stops_reading_does_not_grow_the_server() {
    if std::env::var_os(CHILD).is_some() {
        return;
    }
    let mut child = Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "stdio_server_process", "--test-threads=1"])
        .env(CHILD, "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap();
    let pid = child.id();
    let mut stdin = child.stdin.take().unwrap();
    // A rendezvous channel: the reading thread reads a line only when the test takes one, so
    // while the test does not, nothing is read from the server's stdout.
    let read = lines(&mut child);

    handshake(&mut stdin, &read);
    let text = "x".repeat(TEXT_BYTES);
    // One warm-up call, so the baseline includes what serving any call allocates.
    send(&mut stdin, &call(0, &text));
    reply(&read, &json!(0));
    let baseline = status_kib(pid, "VmRSS:");

    // The flood, written on a thread: with the bound in place its writes block.
    let written = Arc::new(AtomicUsize::new(0));
    let writer = {
        let written = Arc::clone(&written);
        let text = text.clone();
        std::thread::spawn(move || {
            for id in 1..=REQUESTS {
                send(&mut stdin, &call(id, &text));
                written.fetch_add(1, Ordering::Relaxed);
            }
            stdin
        })
    };

    let taken_while_paused = pause(&written);
    let rss_paused = status_kib(pid, "VmRSS:");

    // Read again: every request is answered, each once.
    let mut answers: HashMap<u64, usize> = HashMap::new();
    let deadline = Instant::now() + WAIT;
    while answers.len() < REQUESTS && Instant::now() < deadline {
        let message = read.recv_timeout(WAIT).expect("the server answers");
        let Some(id) = message.get("id").and_then(Value::as_u64) else {
            continue;
        };
        assert_eq!(
            message["result"]["structuredContent"]["result"]
                .as_str()
                .map(str::len),
            Some(TEXT_BYTES),
            "answer {id}: {:.200}",
            message.to_string()
        );
        *answers.entry(id).or_default() += 1;
    }
    let stdin = writer.join().unwrap();
    // `VmHWM` can lag a fresh `VmRSS` sample by a little.
    let peak = status_kib(pid, "VmHWM:").max(rss_paused);
    drop(stdin);
    let _ = child.wait();

    let growth_mib = peak.saturating_sub(baseline) / 1024;
    eprintln!(
        "requests taken while the client did not read: {taken_while_paused} of {REQUESTS}; \
         RSS after the handshake {} MiB, at the end of the pause {} MiB, peak {} MiB \
         (growth {growth_mib} MiB, ceiling {CEILING_MIB} MiB)",
        baseline / 1024,
        rss_paused / 1024,
        peak / 1024,
    );
    let missing: Vec<usize> = (1..=REQUESTS)
        .filter(|id| !answers.contains_key(&(*id as u64)))
        .take(10)
        .collect();
    assert!(missing.is_empty(), "never answered: {missing:?}…");
    assert!(
        answers.values().all(|n| *n == 1),
        "answered more than once: {:?}",
        answers
            .iter()
            .filter(|(_, n)| **n > 1)
            .take(10)
            .collect::<Vec<_>>()
    );
    assert!(
        growth_mib < CEILING_MIB,
        "the server grew by {growth_mib} MiB while its client did not read (ceiling \
         {CEILING_MIB} MiB)"
    );
}
