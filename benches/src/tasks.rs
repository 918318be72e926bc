//! MCP tasks over an in-memory pipe, raw JSON-RPC lines (BENCHMARKS.md §17): the server with
//! one `task = "optional"` tool, and a client that sends a line and reads its answer, so a
//! plain call and a task (creation, then its first `tasks/get`) are measured the same way.

use serde_json::{Value, json};
use tokio::io::{
    AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream, Lines, ReadHalf, WriteHalf,
};
use tool_executor::mcp::McpServer;
use tool_executor::prelude::*;
use tool_executor::task::{MemoryTaskStore, Tasks};

/// Adds, as a task when the client asks for one.
#[tool(task = "optional")]
fn add(a: i64, b: i64) -> i64 {
    a + b
}

/// A raw line client on a pipe to an `McpServer` (2026-07-28: no handshake).
pub struct Wire {
    write: WriteHalf<DuplexStream>,
    lines: Lines<BufReader<ReadHalf<DuplexStream>>>,
    next_id: u64,
    plain: Value,
    task: Value,
}

/// The per-request `_meta`, declaring the tasks extension or not.
fn meta(tasks: bool) -> Value {
    let capabilities = if tasks {
        json!({"extensions": {"io.modelcontextprotocol/tasks": {}}})
    } else {
        json!({})
    };
    json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": capabilities,
        "io.modelcontextprotocol/clientInfo": {"name": "bench", "version": "1"}
    })
}

impl Wire {
    /// Serves `add` on a pipe (call inside a Tokio runtime).
    #[must_use]
    pub fn start() -> Self {
        Self::serve(McpServer::new(toolset![add]))
    }

    /// Serves `add` on a pipe, its tasks in a memory store of at most `max`.
    #[must_use]
    pub fn with_store_limit(max: usize) -> Self {
        let tasks = Tasks::new(MemoryTaskStore::new(max));
        Self::serve(McpServer::new(toolset![add]).with_tasks(tasks))
    }

    /// Serves `add` on a pipe, its tasks in PostgreSQL at `url`.
    ///
    /// # Panics
    /// When the database cannot be reached.
    #[cfg(feature = "postgres")]
    pub async fn with_postgres(url: &str) -> Self {
        let store = tool_executor::task::PostgresTaskStore::connect(url)
            .await
            .expect("PostgreSQL");
        Self::serve(McpServer::new(toolset![add]).with_tasks(Tasks::new(store)))
    }

    /// Serves `server` on a pipe.
    #[must_use]
    pub fn serve(server: McpServer) -> Self {
        let (client, server_end) = tokio::io::duplex(1 << 20);
        let (server_read, server_write) = tokio::io::split(server_end);
        tokio::spawn(server.serve_io(server_read, server_write));
        let (read, write) = tokio::io::split(client);
        let call =
            |tasks| json!({"name": "add", "arguments": {"a": 2, "b": 40}, "_meta": meta(tasks)});
        Self {
            write,
            lines: BufReader::new(read).lines(),
            next_id: 0,
            plain: call(false),
            task: call(true),
        }
    }

    /// Sends one request and returns its answer.
    ///
    /// # Panics
    /// When the server closes the pipe.
    pub async fn request(&mut self, method: &str, params: &Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        let line = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        let mut bytes = serde_json::to_vec(&line).expect("JSON");
        bytes.push(b'\n');
        self.write
            .write_all(&bytes)
            .await
            .expect("the pipe is open");
        loop {
            let line = self
                .lines
                .next_line()
                .await
                .expect("readable")
                .expect("open");
            let reply: Value = serde_json::from_str(&line).expect("JSON");
            if reply["id"] == id {
                return reply;
            }
        }
    }

    /// A plain `tools/call`; its result.
    pub async fn plain_call(&mut self) -> Value {
        let params = self.plain.clone();
        self.request("tools/call", &params).await
    }

    /// The same call as a task, then its first `tasks/get`; the task's id and that answer.
    ///
    /// # Panics
    /// When the server answers no task.
    pub async fn task_and_first_get(&mut self) -> (String, Value) {
        let params = self.task.clone();
        let created = self.request("tools/call", &params).await;
        let id = created["result"]["taskId"]
            .as_str()
            .unwrap_or_else(|| panic!("a task: {created}"))
            .to_owned();
        let get = json!({"taskId": id, "_meta": meta(true)});
        let first = self.request("tasks/get", &get).await;
        (id, first)
    }

    /// `tasks/get` of `id`.
    pub async fn get(&mut self, id: &str) -> Value {
        let get = json!({"taskId": id, "_meta": meta(true)});
        self.request("tasks/get", &get).await
    }
}
