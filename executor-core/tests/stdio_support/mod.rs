//! A raw JSON-RPC client for an `McpServer` on an in-memory pipe: each request waits for its
//! own response (notifications in between are skipped), bounded by a timeout.
#![allow(dead_code)] // each test binary uses a different subset

use std::time::Duration;

use serde_json::{Value, json};
use tokio::io::{
    AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream, Lines, ReadHalf, WriteHalf,
};
use tool_executor::mcp::McpServer;

const WAIT: Duration = Duration::from_secs(20);

pub struct StdioClient {
    write: WriteHalf<DuplexStream>,
    lines: Lines<BufReader<ReadHalf<DuplexStream>>>,
}

impl StdioClient {
    /// Serves `server` on a pipe, with no handshake (2026-07-28 requests need none).
    pub fn open(server: McpServer) -> Self {
        let (client, server_end) = tokio::io::duplex(1 << 20);
        let (server_read, server_write) = tokio::io::split(server_end);
        tokio::spawn(server.serve_io(server_read, server_write));
        let (read, write) = tokio::io::split(client);
        Self {
            write,
            lines: BufReader::new(read).lines(),
        }
    }

    /// Serves `server` on a pipe and completes the 2025-11-25 handshake as `name`.
    pub async fn start(server: McpServer, name: &str) -> Self {
        let mut client = Self::open(server);
        let init = json!({
            "protocolVersion": "2025-11-25",
            "capabilities": {},
            "clientInfo": {"name": name, "version": "1"}
        });
        client.request(0, "initialize", init).await;
        client
            .send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
            .await;
        client
    }

    /// Writes one message.
    pub async fn send(&mut self, message: &Value) {
        self.write
            .write_all(format!("{message}\n").as_bytes())
            .await
            .unwrap();
    }

    /// The next message the server writes, whatever it is.
    pub async fn message(&mut self) -> Value {
        let line = tokio::time::timeout(WAIT, self.lines.next_line())
            .await
            .expect("the server writes")
            .unwrap()
            .expect("the pipe stays open");
        serde_json::from_str(&line).unwrap()
    }

    /// Sends request `id` and returns its whole response.
    pub async fn request(&mut self, id: i64, method: &str, params: Value) -> Value {
        let message = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        self.send(&message).await;
        loop {
            let line = tokio::time::timeout(WAIT, self.lines.next_line())
                .await
                .expect("the server answers")
                .unwrap()
                .expect("the pipe stays open");
            let reply: Value = serde_json::from_str(&line).unwrap();
            if reply["id"] == json!(id) {
                return reply;
            }
        }
    }

    /// `tools/call` of `tool` with `arguments` and request `_meta`; the call's `result`.
    pub async fn call(&mut self, id: i64, tool: &str, arguments: Value, meta: Value) -> Value {
        let params = json!({"name": tool, "arguments": arguments, "_meta": meta});
        self.request(id, "tools/call", params).await["result"].clone()
    }
}
