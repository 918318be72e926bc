//! A minimal HTTP/1.1 client over a loopback socket, so the tests see exactly the bytes an A2A
//! client sends and receives. Every wait is bounded.

#![allow(dead_code)] // each test binary uses part of it

use std::fmt::Write as _;
use std::net::SocketAddr;
use std::time::Duration;

use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// Long enough for a loaded CI machine, short enough that a hang fails the test.
pub const TIMEOUT: Duration = Duration::from_secs(20);

#[derive(Debug)]
pub struct Response {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Response {
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body)
            .unwrap_or_else(|e| panic!("body is not JSON ({e}): {}", self.body))
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The `data:` payloads of an SSE body, as JSON.
    pub fn sse_events(&self) -> Vec<Value> {
        self.body
            .lines()
            .filter_map(|line| line.strip_prefix("data:"))
            .map(|data| {
                serde_json::from_str(data.trim())
                    .unwrap_or_else(|e| panic!("SSE data is not JSON ({e}): {data}"))
            })
            .collect()
    }
}

/// One request on a fresh connection (`Connection: close`), read to the end.
pub async fn request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: Option<&str>,
) -> Response {
    tokio::time::timeout(TIMEOUT, request_inner(addr, method, path, headers, body))
        .await
        .unwrap_or_else(|_| panic!("{method} {path} did not answer within {TIMEOUT:?}"))
}

async fn request_inner(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: Option<&str>,
) -> Response {
    let mut stream = TcpStream::connect(addr)
        .await
        .expect("connect to the agent");
    let mut head = format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
    for (k, v) in headers {
        let _ = write!(head, "{k}: {v}\r\n");
    }
    let body = body.unwrap_or("");
    if !body.is_empty() || method == "POST" {
        let _ = write!(head, "Content-Length: {}\r\n", body.len());
    }
    head.push_str("\r\n");
    stream
        .write_all(head.as_bytes())
        .await
        .expect("write request");
    // A server may answer (and close) before reading an oversized body: keep what it said.
    let _ = stream.write_all(body.as_bytes()).await;
    let mut raw = Vec::new();
    let mut buf = [0u8; 8192];
    loop {
        match stream.read(&mut buf).await {
            Ok(0) => break,
            Ok(n) => raw.extend_from_slice(&buf[..n]),
            Err(e) if !raw.is_empty() => {
                eprintln!("connection ended with {e} after the response");
                break;
            }
            Err(e) => panic!("no response: {e}"),
        }
    }
    parse(&raw)
}

fn parse(raw: &[u8]) -> Response {
    let text = String::from_utf8_lossy(raw);
    let (head, rest) = text.split_once("\r\n\r\n").expect("a complete HTTP head");
    let mut lines = head.lines();
    let status = lines
        .next()
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|s| s.parse().ok())
        .expect("a status line");
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_owned(), v.trim().to_owned()))
        .collect();
    let chunked = headers.iter().any(|(k, v)| {
        k.eq_ignore_ascii_case("transfer-encoding") && v.eq_ignore_ascii_case("chunked")
    });
    let body = if chunked {
        dechunk(rest)
    } else {
        rest.to_owned()
    };
    Response {
        status,
        headers,
        body,
    }
}

fn dechunk(mut rest: &str) -> String {
    let mut body = String::new();
    while let Some((size, after)) = rest.split_once("\r\n") {
        let size = usize::from_str_radix(size.trim(), 16).expect("a chunk size");
        if size == 0 {
            break;
        }
        body.push_str(&after[..size]);
        rest = after[size..].trim_start_matches("\r\n");
    }
    body
}

pub const V1: (&str, &str) = ("A2A-Version", "1.0");
const JSON: (&str, &str) = ("Content-Type", "application/json");

/// A JSON-RPC call with the A2A 1.0 header; the whole response.
pub async fn rpc_raw(addr: SocketAddr, method: &str, params: Value) -> Response {
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params}).to_string();
    request(addr, "POST", "/", &[V1, JSON], Some(&body)).await
}

/// A JSON-RPC call that must succeed; its `result`.
pub async fn rpc(addr: SocketAddr, method: &str, params: Value) -> Value {
    let response = rpc_raw(addr, method, params).await.json();
    assert!(
        response.get("error").is_none(),
        "{method} failed: {response}"
    );
    response["result"].clone()
}

/// A JSON-RPC call that must fail; its `error`.
pub async fn rpc_error(addr: SocketAddr, method: &str, params: Value) -> Value {
    let response = rpc_raw(addr, method, params).await.json();
    assert!(
        response.get("result").is_none(),
        "{method} succeeded: {response}"
    );
    response["error"].clone()
}

/// `SendMessage` params for a user message with `parts`.
pub fn send_params(parts: &Value) -> Value {
    json!({
        "message": {
            "messageId": uuid_like(),
            "role": "ROLE_USER",
            "parts": parts,
        }
    })
}

pub fn text_message(text: &str) -> Value {
    send_params(&json!([{ "text": text }]))
}

fn uuid_like() -> String {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(1);
    format!(
        "msg-{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    )
}

/// Polls `GetTask` until the task's state is `state`.
pub async fn wait_for_state(addr: SocketAddr, task_id: &str, state: &str) -> Value {
    let deadline = tokio::time::Instant::now() + TIMEOUT;
    loop {
        let task = rpc(addr, "GetTask", json!({ "id": task_id })).await;
        if task["status"]["state"] == state {
            return task;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "task {task_id} never reached {state}: {task}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// The text parts of every artifact of a task, in order.
pub fn artifact_texts(task: &Value) -> Vec<String> {
    task["artifacts"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|a| a["parts"].as_array().cloned().unwrap_or_default())
        .filter_map(|p| p["text"].as_str().map(str::to_owned))
        .collect()
}
