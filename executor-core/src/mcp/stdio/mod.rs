//! The stdio transport: newline-delimited JSON-RPC with bounded lines and a pre-`initialize`
//! gate, handing parsed messages to rmcp's service loop.
//!
//! rmcp's own line transport drops an oversized line without a word and hands rmcp any
//! request before `initialize`, well-formed 2026-07-28 or not. This one answers an oversized
//! request with -32600 (with its id when the id appears early in the line), and before
//! `initialize` lets through only `initialize`, `ping`, `server/discover` and a complete
//! 2026-07-28 request (its `_meta` names the version and has the keys that version requires,
//! which starts rmcp's inline, handshake-free session); any other request is refused
//! (-32601 for unknown methods).
//! Unparsable lines are skipped, as the official SDKs do: they carry no id to answer.

//!
//! Lines are read on a task of their own and whole messages handed over a channel: rmcp's
//! service loop drops a pending `receive()` whenever it has something to send, and a read
//! that lived inside `receive()` lost its half-read line with it. Every line written, rmcp's
//! and our refusals alike, goes through one ordered [`Writer`], whose queue of unwritten bytes
//! is bounded: past `McpServer::with_max_pending_output`, no further request is read until the
//! client reads.

pub(crate) mod line;
mod writer;

use std::future::Future;
use std::io;

use rmcp::model::{
    CallToolRequestParams, ClientJsonRpcMessage, ClientRequest, ErrorCode, ErrorData, GetMeta,
    ProtocolVersion, RequestId, ServerJsonRpcMessage, ServerResult,
};
use rmcp::service::RoleServer;
use rmcp::transport::Transport;
use serde_json::Value;
use tokio::io::{AsyncRead, AsyncWrite, BufReader};
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

use super::tasks_legacy;
use line::{Line, find_id, read_line, request_id, trim};
use writer::Writer;

/// How many parsed messages the reader may hold ahead of rmcp's loop (each at most one
/// bounded line); the loop takes them as fast as they come, so this only smooths bursts.
const AHEAD: usize = 4;

pub(crate) struct LineTransport {
    incoming: mpsc::Receiver<ClientJsonRpcMessage>,
    writer: Writer,
    reader: JoinHandle<()>,
    /// The server runs tasks: 2025-11-25 task requests are renamed for it, and its
    /// `initialize` answer declares them (`mcp/tasks_legacy.rs`).
    legacy_tasks: bool,
}

impl LineTransport {
    /// Starts the reader and writer tasks (so it must be called on a Tokio runtime).
    /// `max_line` bounds one request line, `max_pending_output` the answers queued and not
    /// yet written before the reader stops reading requests.
    pub(crate) fn new<R, W>(
        read: R,
        write: W,
        max_line: usize,
        max_pending_output: usize,
        legacy_tasks: bool,
    ) -> Self
    where
        R: AsyncRead + Unpin + Send + 'static,
        W: AsyncWrite + Unpin + Send + 'static,
    {
        let writer = Writer::spawn(write, max_pending_output);
        let (tx, incoming) = mpsc::channel(AHEAD);
        let reader = Reader {
            read: BufReader::new(read),
            writer: writer.clone(),
            max_line,
            initialized: false,
            line: Vec::new(),
            legacy_tasks,
        };
        Self {
            incoming,
            writer,
            reader: tokio::spawn(reader.run(tx)),
            legacy_tasks,
        }
    }
}

impl Drop for LineTransport {
    fn drop(&mut self) {
        // The session is over: stop reading (a reader blocked on stdin would wait forever).
        self.reader.abort();
    }
}

/// The reading half: frames lines, answers what it refuses, and forwards the rest.
struct Reader<R> {
    read: BufReader<R>,
    writer: Writer,
    max_line: usize,
    initialized: bool,
    /// The line being read, reused from line to line.
    line: Vec<u8>,
    /// 2025-11-25 task requests are renamed (`mcp/tasks_legacy.rs`).
    legacy_tasks: bool,
}

impl<R: AsyncRead + Unpin> Reader<R> {
    /// Reads until EOF, a read or write error, or rmcp's loop is gone.
    async fn run(mut self, tx: mpsc::Sender<ClientJsonRpcMessage>) {
        while let Ok(Some(message)) = self.next_message().await {
            if tx.send(message).await.is_err() {
                return;
            }
        }
    }

    /// Queues an error reply and waits until it is written, so a peer that sends bad
    /// requests without reading the answers is not read ahead of without bound.
    fn reply_error(
        &self,
        id: Option<RequestId>,
        code: ErrorCode,
        message: String,
    ) -> impl Future<Output = io::Result<()>> + Send + 'static + use<R> {
        let reply = ServerJsonRpcMessage::error(ErrorData::new(code, message, None), id);
        self.writer.line(&reply)
    }

    /// Answers what rmcp would misroute, and holds back requests until `initialize`.
    async fn gate(
        &mut self,
        message: ClientJsonRpcMessage,
    ) -> io::Result<Option<ClientJsonRpcMessage>> {
        let ClientJsonRpcMessage::Request(request) = message else {
            // Notifications and responses before the handshake have nobody to go to.
            return Ok(self.initialized.then_some(message));
        };
        let refusal = match &request.request {
            ClientRequest::InitializeRequest(_) => {
                self.initialized = true;
                None
            }
            // rmcp answers `server/discover` (2026-07-28) before or after `initialize`.
            ClientRequest::PingRequest(_) | ClientRequest::DiscoverRequest(_) => None,
            // A 2025-11-25 task request, renamed below: served once the session is open.
            ClientRequest::CustomRequest(custom) if tasks_legacy::is_private(&custom.method) => {
                (!self.initialized).then(|| {
                    (
                        ErrorCode::INVALID_REQUEST,
                        format!(
                            "`{}` before `initialize`: send `initialize` first",
                            tasks_legacy::public(&custom.method)
                        ),
                    )
                })
            }
            // A known method whose params did not parse lands here as a custom request.
            ClientRequest::CustomRequest(custom)
                if KNOWN_METHODS.contains(&custom.method.as_str()) =>
            {
                Some((
                    ErrorCode::INVALID_PARAMS,
                    invalid_params(&custom.method, custom.params.as_ref()),
                ))
            }
            ClientRequest::CustomRequest(custom) => Some((
                ErrorCode::METHOD_NOT_FOUND,
                format!("method not found: {}", custom.method),
            )),
            _ if self.initialized => None,
            // 2026-07-28 has no handshake: a request whose `_meta` carries what that version
            // requires starts rmcp's inline session.
            other if starts_inline_session(other) => {
                self.initialized = true;
                None
            }
            other => Some((
                ErrorCode::INVALID_REQUEST,
                format!(
                    "`{}` before `initialize`: send `initialize` first",
                    other.method()
                ),
            )),
        };
        match refusal {
            None => Ok(Some(ClientJsonRpcMessage::Request(request))),
            Some((code, text)) => {
                self.reply_error(Some(request.id), code, text).await?;
                Ok(None)
            }
        }
    }

    async fn next_message(&mut self) -> io::Result<Option<ClientJsonRpcMessage>> {
        loop {
            // Backpressure: while the client leaves its answers unread, its requests stay in
            // the pipe (writer.rs).
            self.writer.room().await;
            match read_line(&mut self.read, self.max_line, &mut self.line).await? {
                Line::Eof => return Ok(None),
                Line::Oversized => {
                    let text = format!("request exceeds the {}-byte limit", self.max_line);
                    self.reply_error(find_id(&self.line), ErrorCode::INVALID_REQUEST, text)
                        .await?;
                    continue;
                }
                Line::Complete => {}
            }
            let line = trim(&self.line);
            if line.is_empty() {
                continue;
            }
            let renamed = self
                .legacy_tasks
                .then(|| tasks_legacy::rewrite(line))
                .flatten();
            let line = renamed.as_deref().unwrap_or(line);
            // Parsed once, straight into rmcp's message type. Only a line that does not parse
            // that way goes through a `Value`, to find its id for the error (measured in
            // BENCHMARKS.md §7: parsing every line to a `Value` first cost each request a second
            // parse).
            let message = if let Ok(message) = serde_json::from_slice(line) {
                message
            } else {
                let Ok(value) = serde_json::from_slice::<Value>(line) else {
                    continue; // unparsable: nothing to answer (see the module docs)
                };
                let id = value.get("id").and_then(request_id);
                match serde_json::from_value::<ClientJsonRpcMessage>(value) {
                    Ok(message) => message,
                    Err(e) => {
                        let text = format!("invalid request: {e}");
                        self.reply_error(id, ErrorCode::INVALID_REQUEST, text)
                            .await?;
                        continue;
                    }
                }
            };
            if let Some(message) = self.gate(message).await? {
                return Ok(Some(message));
            }
        }
    }
}

/// Methods rmcp models; a request for one of them that arrives as a custom request had
/// params that did not parse.
const KNOWN_METHODS: &[&str] = &[
    "initialize",
    "ping",
    "tools/list",
    "tools/call",
    "prompts/list",
    "prompts/get",
    "resources/list",
    "resources/read",
    "resources/templates/list",
    "resources/subscribe",
    "resources/unsubscribe",
    "completion/complete",
    "logging/setLevel",
];

/// Whether a request before `initialize` is a 2026-07-28 request rmcp will serve: its `_meta`
/// names that version and has every key the version requires (rmcp's own pre-handshake test;
/// a request it refuses leaves the gate closed).
fn starts_inline_session(request: &ClientRequest) -> bool {
    let meta = request.get_meta();
    meta.protocol_version() == Some(ProtocolVersion::V_2026_07_28)
        && meta
            .missing_required_keys(&ProtocolVersion::V_2026_07_28)
            .is_empty()
}

fn invalid_params(method: &str, params: Option<&Value>) -> String {
    let detail = match method {
        "tools/call" => {
            serde_json::from_value::<CallToolRequestParams>(params.cloned().unwrap_or(Value::Null))
                .err()
                .map(|e| format!(": {e}"))
        }
        _ => None,
    };
    format!(
        "invalid params for `{method}`{}",
        detail.unwrap_or_default()
    )
}

impl Transport<RoleServer> for LineTransport {
    type Error = io::Error;

    fn send(
        &mut self,
        item: ServerJsonRpcMessage,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        let line = if self.legacy_tasks
            && let ServerJsonRpcMessage::Response(response) = &item
            && matches!(response.result, ServerResult::InitializeResult(_))
        {
            serde_json::to_value(&item).and_then(|mut value| {
                if let Some(result) = value.get_mut("result") {
                    tasks_legacy::advertise(result);
                }
                serde_json::to_vec(&value)
            })
        } else {
            serde_json::to_vec(&item)
        };
        self.writer.serialized(line)
    }

    async fn receive(&mut self) -> Option<ClientJsonRpcMessage> {
        // Cancel-safe: a message is either still in the channel or returned.
        self.incoming.recv().await
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        self.incoming.close();
        self.writer.close().await
    }
}
