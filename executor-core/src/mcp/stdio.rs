//! The stdio transport: newline-delimited JSON-RPC with bounded lines and a pre-`initialize`
//! gate, handing parsed messages to rmcp's service loop.
//!
//! rmcp's own line transport drops an oversized line without a word and treats any request
//! before `initialize` as the start of a 2026-07-28 inline session. This one answers both:
//! an oversized request gets -32600 (with its id when the id appears early in the line),
//! and before `initialize` every request but `initialize` and `ping` is refused — -32601 for
//! `server/discover` and unknown methods, so a probing client falls back to the handshake.
//! Unparsable lines are skipped, as the official SDKs do: they carry no id to answer.

use std::future::Future;
use std::io;
use std::sync::Arc;

use rmcp::model::{
    CallToolRequestParams, ClientJsonRpcMessage, ClientRequest, ErrorCode, ErrorData,
    NumberOrString, RequestId, ServerJsonRpcMessage,
};
use rmcp::service::RoleServer;
use rmcp::transport::Transport;
use serde_json::Value;
use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::Mutex;

/// What [`read_line`] read into its buffer.
#[derive(Debug, PartialEq, Eq)]
enum Line {
    /// A whole line.
    Complete,
    /// A line longer than the bound: the buffer holds its first bytes, to find the id in.
    Oversized,
    Eof,
}

/// The most line buffer kept between lines; a longer line's buffer is freed.
const KEPT_CAPACITY: usize = 64 * 1024;

/// How much of an oversized line is kept to look for its id.
const PREFIX_BYTES: usize = 1024;

pub(crate) struct LineTransport<R, W> {
    read: BufReader<R>,
    write: Arc<Mutex<W>>,
    max_line: usize,
    initialized: bool,
    /// The line being read, reused from line to line.
    line: Vec<u8>,
}

impl<R, W> LineTransport<R, W>
where
    R: tokio::io::AsyncRead + Unpin + Send + 'static,
    W: AsyncWrite + Unpin + Send + 'static,
{
    pub(crate) fn new(read: R, write: W, max_line: usize) -> Self {
        Self {
            read: BufReader::new(read),
            write: Arc::new(Mutex::new(write)),
            max_line,
            initialized: false,
            line: Vec::new(),
        }
    }

    fn reply_error(
        &self,
        id: Option<RequestId>,
        code: ErrorCode,
        message: String,
    ) -> impl Future<Output = io::Result<()>> + Send + 'static + use<R, W> {
        let reply = ServerJsonRpcMessage::error(ErrorData::new(code, message, None), id);
        write_line(&self.write, &reply)
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
            ClientRequest::PingRequest(_) => None,
            // This server speaks the `initialize` handshake only; rmcp would answer a
            // discover after it with a missing-metadata -32602.
            ClientRequest::DiscoverRequest(_) => Some((
                ErrorCode::METHOD_NOT_FOUND,
                "method not found: server/discover (this server uses `initialize`)".to_owned(),
            )),
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
            // Parsed once, straight into rmcp's message type. Only a line that does not parse
            // that way goes through a `Value`, to find its id for the error (measured in
            // BENCHMARKS.md: parsing every line to a `Value` first cost each request a second
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

/// Writes one message as a line. The future owns what it needs, as rmcp's `send` requires.
fn write_line<W>(
    write: &Arc<Mutex<W>>,
    message: &ServerJsonRpcMessage,
) -> impl Future<Output = io::Result<()>> + Send + 'static + use<W>
where
    W: AsyncWrite + Unpin + Send + 'static,
{
    let bytes = serde_json::to_vec(message).map(|mut b| {
        b.push(b'\n');
        b
    });
    let write = Arc::clone(write);
    async move {
        let bytes = bytes.map_err(io::Error::other)?;
        let mut write = write.lock().await;
        write.write_all(&bytes).await?;
        write.flush().await
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

fn trim(bytes: &[u8]) -> &[u8] {
    let bytes = bytes.strip_suffix(b"\n").unwrap_or(bytes);
    let bytes = bytes.strip_suffix(b"\r").unwrap_or(bytes);
    bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes)
}

fn request_id(value: &Value) -> Option<RequestId> {
    match value {
        Value::Number(n) => n.as_i64().map(NumberOrString::Number),
        Value::String(s) => Some(NumberOrString::String(s.as_str().into())),
        _ => None,
    }
}

/// Finds a top-level-looking `"id": <number or string>` in the first bytes of an oversized
/// request, so the error can be correlated. Serializers put `id` before `params` (the SDKs
/// emit `jsonrpc`, `id`, `method`, `params`); a miss answers with a null id.
fn find_id(prefix: &[u8]) -> Option<RequestId> {
    let text = String::from_utf8_lossy(prefix);
    let params_at = text.find("\"params\"").unwrap_or(text.len());
    let at = text[..params_at].find("\"id\"")?;
    let rest = text[at + 4..].trim_start().strip_prefix(':')?.trim_start();
    let mut stream = serde_json::Deserializer::from_str(rest).into_iter::<Value>();
    stream.next()?.ok().as_ref().and_then(request_id)
}

/// Reads one line into `line` (cleared first) without holding more than `max` bytes of it.
/// The buffer keeps its capacity for the next line unless a long line grew it past
/// [`KEPT_CAPACITY`].
async fn read_line<R: AsyncBufRead + Unpin>(
    read: &mut R,
    max: usize,
    line: &mut Vec<u8>,
) -> io::Result<Line> {
    if line.capacity() > KEPT_CAPACITY {
        *line = Vec::new();
    }
    line.clear();
    let mut oversized = false;
    loop {
        let buf = read.fill_buf().await?;
        if buf.is_empty() {
            return Ok(match (line.is_empty(), oversized) {
                (_, true) => Line::Oversized,
                (true, false) => Line::Eof,
                (false, false) => Line::Complete,
            });
        }
        let (chunk, done) = match memchr::memchr(b'\n', buf) {
            Some(i) => (&buf[..=i], true),
            None => (buf, false),
        };
        let used = chunk.len();
        if !oversized && line.len() + used > max {
            oversized = true;
        }
        // Past the bound, only a prefix (to find the id in) is kept; the rest is discarded.
        let keep = if oversized {
            PREFIX_BYTES.saturating_sub(line.len()).min(used)
        } else {
            used
        };
        line.extend_from_slice(&chunk[..keep]);
        if oversized {
            line.truncate(PREFIX_BYTES);
        }
        read.consume(used);
        if done {
            return Ok(if oversized {
                Line::Oversized
            } else {
                Line::Complete
            });
        }
    }
}

impl<R, W> Transport<RoleServer> for LineTransport<R, W>
where
    R: tokio::io::AsyncRead + Unpin + Send + 'static,
    W: AsyncWrite + Unpin + Send + 'static,
{
    type Error = io::Error;

    fn send(
        &mut self,
        item: ServerJsonRpcMessage,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        write_line(&self.write, &item)
    }

    async fn receive(&mut self) -> Option<ClientJsonRpcMessage> {
        // A write error means the peer is gone: end the session like EOF.
        self.next_message().await.ok().flatten()
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        self.write.lock().await.shutdown().await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_ids_before_params() {
        let line = br#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo","arguments":{"text":"xxxx"#;
        assert_eq!(find_id(line), Some(NumberOrString::Number(7)));
        let line = br#"{"jsonrpc":"2.0","id":"a-1","method":"tools/call","params":{"#;
        assert_eq!(find_id(line), Some(NumberOrString::String("a-1".into())));
        let line = br#"{"jsonrpc":"2.0","method":"tools/call","params":{"id":3,"#;
        assert_eq!(find_id(line), None);
    }

    #[tokio::test]
    async fn long_lines_are_cut_and_the_next_line_survives() {
        let input = format!("{}\nok\n", "x".repeat(5000));
        let mut read = BufReader::with_capacity(64, input.as_bytes());
        let mut line = Vec::new();
        assert_eq!(
            read_line(&mut read, 100, &mut line).await.unwrap(),
            Line::Oversized
        );
        assert_eq!(line.len(), PREFIX_BYTES);
        assert_eq!(
            read_line(&mut read, 100, &mut line).await.unwrap(),
            Line::Complete
        );
        assert_eq!(line, b"ok\n");
        assert_eq!(
            read_line(&mut read, 100, &mut line).await.unwrap(),
            Line::Eof
        );
    }
}
