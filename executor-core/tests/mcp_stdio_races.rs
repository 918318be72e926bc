//! `McpServer` on stdio under the races that used to lose messages: a request line that
//! arrives in several reads while the server is writing (a reply, progress), large pipelined
//! calls in one write, our own refusals right after a reply, and a soak of mixed traffic cut
//! into random chunks. The server runs in-process on real OS pipes.
//!
//! rmcp's service loop drops the transport's pending `receive()` whenever an outgoing message
//! is ready, so each test keeps the server writing while a line is half read.
#![cfg(all(unix, feature = "mcp"))]

use std::collections::{HashMap, HashSet};
use std::time::Duration;

use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::unix::pipe;
use tokio::sync::mpsc;
use tool_executor::mcp::McpServer;
use tool_executor::prelude::*;

/// How long a test waits for replies before naming the ones that never came.
const WAIT: Duration = Duration::from_secs(10);

/// Returns the text it was given.
#[tool]
fn echo(text: &str) -> String {
    text.to_owned()
}

/// Reports progress every 2 ms for `ms` milliseconds: background traffic.
#[tool]
async fn pulse(ms: u64, ctx: &ToolContext) -> u64 {
    let ticks = ms / 2;
    for tick in 1..=ticks {
        tokio::time::sleep(Duration::from_millis(2)).await;
        #[allow(clippy::cast_precision_loss)] // tick counts stay far below 2^52
        ctx.progress(tick as f64 / ticks as f64, None).await;
    }
    ticks
}

/// Our end of the two pipes, with every message the server wrote collected on a task (so a
/// server blocked on a full pipe never stalls the test).
struct Client {
    /// Bytes for the server, written in order by a task (a write never blocks the test).
    write: mpsc::UnboundedSender<Vec<u8>>,
    read: mpsc::UnboundedReceiver<Value>,
    /// Replies by id (as JSON text), with how many came.
    replies: HashMap<String, Vec<Value>>,
}

impl Client {
    fn start() -> Self {
        let server = McpServer::new(toolset![echo, pulse]).with_name("races");
        let (mut to_server, server_in) = pipe::pipe().unwrap();
        let (server_out, from_server) = pipe::pipe().unwrap();
        tokio::spawn(server.serve_io(server_in, server_out));
        let (write, mut bytes) = mpsc::unbounded_channel::<Vec<u8>>();
        tokio::spawn(async move {
            while let Some(bytes) = bytes.recv().await {
                to_server.write_all(&bytes).await.unwrap();
            }
        });
        let (tx, read) = mpsc::unbounded_channel();
        tokio::spawn(async move {
            let mut lines = BufReader::new(from_server).lines();
            while let Ok(Some(line)) = lines.next_line().await {
                let value: Value = serde_json::from_str(&line).expect("the server writes JSON");
                if tx.send(value).is_err() {
                    break;
                }
            }
        });
        Self {
            write,
            read,
            replies: HashMap::new(),
        }
    }

    fn write(&self, bytes: impl Into<Vec<u8>>) {
        self.write.send(bytes.into()).unwrap();
    }

    fn send(&self, message: &Value) {
        self.write(format!("{message}\n"));
    }

    /// Waits until every id in `ids` has a reply; panics naming the missing ones.
    async fn await_replies(&mut self, ids: &[Value]) {
        let deadline = tokio::time::Instant::now() + WAIT;
        let mut missing: HashSet<String> = ids
            .iter()
            .map(Value::to_string)
            .filter(|id| !self.replies.contains_key(id))
            .collect();
        while !missing.is_empty() {
            let Ok(Some(message)) = tokio::time::timeout_at(deadline, self.read.recv()).await
            else {
                let some: Vec<_> = missing.iter().take(5).collect();
                panic!(
                    "{} of {} requests got no reply, e.g. {some:?}",
                    missing.len(),
                    ids.len()
                );
            };
            if let Some(id) = message.get("id") {
                let id = id.to_string();
                missing.remove(&id);
                self.replies.entry(id).or_default().push(message);
            }
        }
    }

    /// The one reply to `id`.
    async fn reply(&mut self, id: &Value) -> Value {
        self.await_replies(std::slice::from_ref(id)).await;
        let replies = &self.replies[&id.to_string()];
        assert_eq!(replies.len(), 1, "one reply to {id}: {replies:?}");
        replies[0].clone()
    }

    async fn initialize(&mut self) {
        self.send(
            &json!({"jsonrpc": "2.0", "id": "init", "method": "initialize", "params": {
                "protocolVersion": "2025-06-18", "capabilities": {},
                "clientInfo": {"name": "races", "version": "1"}
            }}),
        );
        self.reply(&json!("init")).await;
        self.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    }

    /// Starts a `pulse` call that sends progress for `ms` milliseconds.
    fn background_progress(&self, id: &str, ms: u64) {
        self.send(
            &json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {
                "name": "pulse", "arguments": {"ms": ms}, "_meta": {"progressToken": id}
            }}),
        );
    }

    /// Asserts that no id got more than one reply, after a final ping has been answered.
    async fn assert_no_duplicates(&mut self) {
        self.send(&json!({"jsonrpc": "2.0", "id": "last", "method": "ping"}));
        self.reply(&json!("last")).await;
        let twice: Vec<_> = self.replies.iter().filter(|(_, r)| r.len() > 1).collect();
        assert!(twice.is_empty(), "answered more than once: {twice:?}");
    }
}

fn call(id: &Value, name: &str, arguments: &Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
           "params": {"name": name, "arguments": arguments}})
}

fn text(reply: &Value) -> &str {
    reply["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_else(|| panic!("a successful call: {reply}"))
}

/// The reproducer, `split` times: half a line, 120 ms of silence, the rest.
async fn split_calls(client: &mut Client, split: usize, reply_first: bool) {
    for i in 0..split {
        let line = call(
            &json!(format!("sp{i}")),
            "echo",
            &json!({"text": format!("split {i}")}),
        )
        .to_string();
        let (head, tail) = line.split_at(line.find("ho\"").unwrap());
        let mut first = Vec::new();
        if reply_first {
            // A whole request first, so its reply is written during the pause.
            let warm = call(&json!(format!("warm{i}")), "echo", &json!({"text": "w"}));
            first.extend_from_slice(format!("{warm}\n").as_bytes());
        }
        first.extend_from_slice(head.as_bytes());
        client.write(first);
        tokio::time::sleep(Duration::from_millis(120)).await;
        client.write(format!("{tail}\n"));
    }
    for i in 0..split {
        let reply = client.reply(&json!(format!("sp{i}"))).await;
        assert_eq!(text(&reply), format!("split {i}"));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_line_split_by_a_pause_survives_the_reply_written_meanwhile() {
    let mut client = Client::start();
    client.initialize().await;
    split_calls(&mut client, 5, true).await;
    client.assert_no_duplicates().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_line_split_by_a_pause_survives_progress_traffic() {
    let mut client = Client::start();
    client.initialize().await;
    client.background_progress("bg", 2_000);
    split_calls(&mut client, 5, false).await;
    let done = client.reply(&json!("bg")).await;
    assert_eq!(done["result"]["structuredContent"], json!({"result": 1000}));
    client.assert_no_duplicates().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_hundred_large_calls_in_one_write_are_all_answered() {
    let mut client = Client::start();
    client.initialize().await;
    client.background_progress("bg", 1_000);
    let big = "x".repeat(20_000);
    let mut batch = Vec::new();
    let ids: Vec<Value> = (0..200).map(|i| json!(i)).collect();
    for id in &ids {
        let text = format!("{id} {big}");
        batch.extend_from_slice(
            format!("{}\n", call(id, "echo", &json!({"text": text}))).as_bytes(),
        );
    }
    client.write(batch);
    client.await_replies(&ids).await;
    for id in &ids {
        assert_eq!(
            text(&client.replies[&id.to_string()][0]),
            format!("{id} {big}")
        );
    }
    client.assert_no_duplicates().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refusal_right_after_a_reply_is_never_lost() {
    let mut client = Client::start();
    client.initialize().await;
    client.background_progress("bg", 1_000);
    let mut refused = Vec::new();
    for i in 0..200 {
        let ok = call(&json!(format!("ok{i}")), "echo", &json!({"text": "fine"}));
        let bad = call(&json!(format!("bad{i}")), "echo", &json!("not an object"));
        client.write(format!("{ok}\n{bad}\n"));
        refused.push(json!(format!("bad{i}")));
        tokio::task::yield_now().await;
    }
    client.await_replies(&refused).await;
    for id in &refused {
        let reply = &client.replies[&id.to_string()][0];
        assert_eq!(reply["error"]["code"], -32602, "{reply}");
    }
    client.assert_no_duplicates().await;
}

/// A small deterministic generator (xorshift64), so a failing soak can be replayed.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

/// What the reply to one soak request must be.
#[derive(Debug)]
enum Expect {
    Text(String),
    Result,
    Error(i64),
}

/// One soak line and, when it carries an id, what its reply must be.
fn soak_line(rng: &mut Rng, n: u64) -> (String, Option<(Value, Expect)>) {
    let id = json!(format!("s{n}"));
    let (message, expect) = match rng.below(10) {
        0..=2 => {
            let text = "t".repeat(usize::try_from(rng.below(3000)).unwrap());
            let message = call(&id, "echo", &json!({"text": text}));
            (message, Expect::Text(text))
        }
        3 => (
            json!({"jsonrpc": "2.0", "id": id, "method": "ping"}),
            Expect::Result,
        ),
        4 => (call(&id, "echo", &json!([1, 2])), Expect::Error(-32602)),
        5 => (call(&id, "nope", &json!({})), Expect::Error(-32602)),
        6 => (
            json!({"jsonrpc": "2.0", "id": id, "method": "no/such/method"}),
            Expect::Error(-32601),
        ),
        7 => (
            json!({"jsonrpc": "2.0", "id": id, "method": 42}),
            Expect::Error(-32600),
        ),
        8 => {
            let mut message = call(&id, "pulse", &json!({"ms": 6}));
            message["params"]["_meta"] = json!({"progressToken": n});
            (message, Expect::Result)
        }
        _ => {
            // No id: a notification, a line that is not JSON, or a blank line.
            let line = match rng.below(3) {
                0 => json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
                            "params": {"requestId": "never-sent"}})
                .to_string(),
                1 => "{\"jsonrpc\": \"2.0\", this is not json".to_owned(),
                _ => String::new(),
            };
            return (line, None);
        }
    };
    (message.to_string(), Some((id, expect)))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn soak_every_request_with_an_id_gets_exactly_one_reply() {
    let mut client = Client::start();
    client.initialize().await;
    let mut rng = Rng(0x5eed_cafe_f00d_0001);
    let mut stream = Vec::new();
    let mut expected = Vec::new();
    for n in 0..3000 {
        let (line, expect) = soak_line(&mut rng, n);
        stream.extend_from_slice(line.as_bytes());
        stream.push(b'\n');
        expected.extend(expect);
    }
    // Random cuts, with short pauses, so lines arrive in pieces while the server writes.
    let mut rest = &stream[..];
    while !rest.is_empty() {
        let cut = usize::try_from(rng.below(8192) + 1)
            .unwrap()
            .min(rest.len());
        let (chunk, tail) = rest.split_at(cut);
        client.write(chunk);
        rest = tail;
        if rng.below(4) == 0 {
            tokio::time::sleep(Duration::from_millis(rng.below(3))).await;
        }
    }
    let ids: Vec<Value> = expected.iter().map(|(id, _)| id.clone()).collect();
    client.await_replies(&ids).await;
    for (id, expect) in &expected {
        let reply = &client.replies[&id.to_string()][0];
        match expect {
            Expect::Text(t) => assert_eq!(text(reply), t, "{id}"),
            Expect::Result => assert!(reply.get("result").is_some(), "{reply}"),
            Expect::Error(code) => assert_eq!(reply["error"]["code"], *code, "{reply}"),
        }
    }
    client.assert_no_duplicates().await;
}
