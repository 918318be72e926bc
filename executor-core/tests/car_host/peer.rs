//! A car daemon's side of its WebSocket protocol, on loopback, for `CarHost` to talk to
//! without building car: `session.auth`, `server.handshake`, `tools.register`, then
//! `tools.execute` calls and `tools.cancel` notifications sent by the test.
//!
//! It speaks through car's own code where car has a piece to cut: the message types of
//! car-proto 0.60 (`ToolDefinition`, `ToolExecuteRequest`, `ToolCancelRequest`,
//! `ToolExecuteResponse`, the protocol range and capability negotiation) and of
//! car-server-core 0.60 (`JsonRpcMessage`, the handshake's params reader, the expression that
//! classifies a host's answer, `decode_callback_execution`), copied verbatim into `fixtures/`
//! by `.ci/car-fixtures.sh` (which `.ci/car-check.sh` runs to check they are still car's text).
//! What is written here is the glue: the socket, the method table and the stand-ins for the
//! two car-engine functions `decode_callback_execution` names (outputs are not validated
//! against a return schema here; the peer passes none).
//!
//! Shared by `tests/car_host.rs` and `examples/car_peer.rs` (through `#[path]`).

#![allow(dead_code, unreachable_pub, clippy::pedantic, clippy::nursery)]

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::net::TcpListener;
use tokio::sync::{mpsc, oneshot};
use tokio_tungstenite::tungstenite::Message;

/// car-proto 0.60: the constants the peer names (`.ci/car-fixtures.sh` checks each line is
/// car's) and the types cut from its source.
pub mod car_proto {
    use serde::{Deserialize, Serialize};
    use serde_json::Value;

    pub const PROTOCOL_VERSION: u32 = 3;
    pub const PROTOCOL_VERSION_MIN: u32 = 3;
    pub const TOOLS_CALLBACK_STATE_CAPABILITY: &str = "tools.callback-state.v1";
    pub const PROTOCOL_HANDSHAKE_REQUIRED_ERROR_CODE: i32 = -32005;
    pub const PROTOCOL_VERSION_MISMATCH_ERROR_CODE: i32 = -32006;
    pub const PROTOCOL_CAPABILITY_MISMATCH_ERROR_CODE: i32 = -32008;
    pub const PROTOCOL_HANDSHAKE_REQUIRED_MESSAGE_PREFIX: &str = "protocol handshake required:";
    pub const PROTOCOL_VERSION_MISMATCH_MESSAGE_PREFIX: &str = "protocol version mismatch:";
    pub const PROTOCOL_CAPABILITY_MISMATCH_MESSAGE_PREFIX: &str = "protocol capability mismatch:";

    /// The capabilities this peer implements (car's list has more; none concerns a host).
    pub const SUPPORTED_CAPABILITIES: &[&str] = &[TOOLS_CALLBACK_STATE_CAPABILITY];

    include!("fixtures/car_proto.rs");
}

/// car-server-core 0.60's handler: the handshake's params, the frame type and the
/// classification of a host's answer.
mod handler {
    use super::car_proto;
    use super::car_proto::ToolExecuteResponse;
    use serde::Deserialize;
    use serde_json::Value;

    #[derive(Debug)]
    pub(crate) struct ProtocolHandshakeError {
        pub code: i32,
        pub message: String,
    }

    include!("fixtures/handshake.rs");
    include!("fixtures/message.rs");

    /// The client's protocol range, as the dispatcher reads it.
    pub(crate) fn client_range(params: &ServerHandshakeParams) -> car_proto::ProtocolRange {
        client_protocol_range(params)
    }

    /// What the dispatcher hands the waiting executor for the answer `parsed` to `id_str`.
    pub(crate) fn tool_response(parsed: JsonRpcMessage, id_str: &str) -> ToolExecuteResponse {
        include!("fixtures/callback.rs")
    }
}

/// car-server-core 0.60's `decode_callback_execution`, over stand-ins for the car-engine and
/// car-inference items it names.
mod session {
    use std::collections::HashMap;

    use serde_json::Value;

    pub mod car_engine {
        use std::collections::HashMap;

        use serde_json::Value;

        /// car-engine's `ToolExecution`: the same two fields.
        #[derive(Debug, Clone, PartialEq)]
        pub struct ToolExecution {
            pub output: Value,
            pub state_changes: HashMap<String, Value>,
        }

        impl ToolExecution {
            pub fn output_only(output: Value) -> Self {
                Self {
                    output,
                    state_changes: HashMap::new(),
                }
            }
        }

        /// The peer passes no return schema, so this is never reached; it fails if it is.
        pub fn validate_tool_output(
            tool: &str,
            _schema: &Value,
            _output: &Value,
        ) -> Result<(), String> {
            Err(format!("the test peer does not validate `{tool}`'s output"))
        }
    }

    pub mod car_inference {
        pub mod catalog_identity {
            use serde_json::Value;

            /// The canonical text (the peer checks only that it serializes).
            pub fn canonical_json(value: &Value) -> Result<String, String> {
                serde_json::to_string(value).map_err(|error| error.to_string())
            }
        }
    }

    include!("fixtures/decode.rs");

    pub(crate) fn decode(
        tool: &str,
        action_id: &str,
        result: Value,
        expected_effects: &HashMap<String, Value>,
        callback_state_negotiated: bool,
    ) -> Result<car_engine::ToolExecution, String> {
        decode_callback_execution(
            tool,
            action_id,
            result,
            expected_effects,
            None,
            callback_state_negotiated,
        )
    }
}

pub use car_proto::ToolDefinition;
pub use session::car_engine::ToolExecution;

/// How the peer behaves.
#[derive(Debug, Clone)]
pub struct Config {
    /// The token `session.auth` must carry (`{"token": …}`); `None`: no auth.
    pub token: Option<String>,
    /// Whether it offers `tools.callback-state.v1`.
    pub callback_state: bool,
}

impl Default for Config {
    fn default() -> Self {
        Self {
            token: None,
            callback_state: true,
        }
    }
}

/// The listening peer: every connection that registers becomes a [`Session`].
pub struct Daemon {
    addr: SocketAddr,
    sessions: mpsc::Receiver<Session>,
    accept: tokio::task::JoinHandle<()>,
}

impl Drop for Daemon {
    fn drop(&mut self) {
        self.accept.abort();
    }
}

impl Daemon {
    /// Listens on a free loopback port.
    pub async fn start(config: Config) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind loopback");
        let addr = listener.local_addr().expect("peer address");
        let (tx, sessions) = mpsc::channel(8);
        let accept = tokio::spawn(async move {
            let mut connections = tokio::task::JoinSet::new();
            while let Ok((stream, _)) = listener.accept().await {
                connections.spawn(serve(stream, config.clone(), tx.clone()));
            }
        });
        Self {
            addr,
            sessions,
            accept,
        }
    }

    /// `ws://127.0.0.1:PORT/`.
    pub fn url(&self) -> String {
        format!("ws://{}/", self.addr)
    }

    /// The next connection that registered its tools, within `limit`.
    pub async fn next_session(&mut self, limit: Duration) -> Option<Session> {
        tokio::time::timeout(limit, self.sessions.recv())
            .await
            .ok()
            .flatten()
    }
}

/// One call the peer makes, as car's executor would.
#[derive(Debug, Clone, Default)]
pub struct Call {
    pub tool: String,
    pub parameters: Value,
    pub action_id: String,
    pub attempt: u32,
    pub timeout_ms: Option<u64>,
    pub session_id: Option<String>,
    pub expected_effects: HashMap<String, Value>,
    /// How long to wait for the answer before sending `tools.cancel` (default: `timeout_ms`,
    /// else 10 s).
    pub wait: Option<Duration>,
}

impl Call {
    pub fn new(tool: &str, parameters: Value) -> Self {
        Self {
            tool: tool.to_owned(),
            parameters,
            action_id: format!("action-{tool}"),
            attempt: 1,
            ..Self::default()
        }
    }
}

/// How a call ended, as car's executor sees it.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// The answer decoded (`decode_callback_execution`).
    Done(ToolExecution),
    /// The host answered with an error: car's message and terminal bit.
    Failed { message: String, terminal: bool },
    /// The answer did not decode (for example state changes that do not match the expected
    /// effects).
    Rejected(String),
    /// No answer in time; the peer sent this `tools.cancel`.
    TimedOut { cancel: Value },
    /// The connection ended first.
    Closed,
}

type Waiting = Arc<Mutex<HashMap<String, oneshot::Sender<handler::JsonRpcMessage>>>>;

/// A connection whose host registered.
pub struct Session {
    /// What `tools.register` carried, decoded as car's `ToolDefinition`s.
    pub tools: Vec<ToolDefinition>,
    /// The raw params of every request the host sent, by method, in order.
    pub requests: Arc<Mutex<Vec<(String, Value)>>>,
    /// The capabilities the handshake settled on.
    pub negotiated: Vec<String>,
    write: mpsc::Sender<Message>,
    waiting: Waiting,
    next: AtomicU64,
    callback_state: bool,
}

impl Session {
    /// Sends `tools.execute` and reads the answer through car's code.
    pub async fn execute(&self, call: Call) -> Outcome {
        let request_id = format!("cb-{}", self.next.fetch_add(1, Ordering::Relaxed));
        let request = car_proto::ToolExecuteRequest {
            action_id: call.action_id.clone(),
            tool: call.tool.clone(),
            parameters: call.parameters.clone(),
            timeout_ms: call.timeout_ms,
            attempt: call.attempt,
            request_id: request_id.clone(),
            session_id: call.session_id.clone(),
        };
        let (tx, rx) = oneshot::channel();
        lock(&self.waiting).insert(request_id.clone(), tx);
        let frame = json!({
            "jsonrpc": "2.0",
            "method": "tools.execute",
            "params": request,
            "id": request_id,
        });
        if self.send(frame).await.is_err() {
            return Outcome::Closed;
        }
        let wait = call.wait.unwrap_or_else(|| {
            call.timeout_ms
                .map_or(Duration::from_secs(10), Duration::from_millis)
        });
        let answer = match tokio::time::timeout(wait, rx).await {
            Ok(Ok(answer)) => answer,
            Ok(Err(_)) => return Outcome::Closed,
            Err(_) => {
                lock(&self.waiting).remove(&request_id);
                let cancel = car_proto::ToolCancelRequest {
                    request_id,
                    action_id: call.action_id.clone(),
                    reason: format!("tool '{}' callback timed out", call.tool),
                };
                let cancel = json!({"jsonrpc": "2.0", "method": "tools.cancel", "params": cancel});
                let _ = self.send(cancel.clone()).await;
                return Outcome::TimedOut { cancel };
            }
        };
        let response = handler::tool_response(answer, &request_id);
        if let Some(message) = response.error {
            return Outcome::Failed {
                message,
                terminal: response.terminal,
            };
        }
        match session::decode(
            &call.tool,
            &call.action_id,
            response.output.unwrap_or(Value::Null),
            &call.expected_effects,
            self.callback_state,
        ) {
            Ok(execution) => Outcome::Done(execution),
            Err(reason) => Outcome::Rejected(reason),
        }
    }

    /// Sends any frame to the host.
    pub async fn send(&self, frame: Value) -> Result<(), ()> {
        self.write
            .send(Message::text(frame.to_string()))
            .await
            .map_err(|_| ())
    }

    /// Sends a request to the host and returns its answer (bounded).
    pub async fn ask(&self, method: &str, params: Value) -> Option<handler::JsonRpcMessage> {
        let id = format!("ask-{}", self.next.fetch_add(1, Ordering::Relaxed));
        let (tx, rx) = oneshot::channel();
        lock(&self.waiting).insert(id.clone(), tx);
        let frame = json!({"jsonrpc": "2.0", "method": method, "params": params, "id": id});
        self.send(frame).await.ok()?;
        tokio::time::timeout(Duration::from_secs(5), rx)
            .await
            .ok()?
            .ok()
    }

    /// Closes the connection with a close frame, and waits (bounded) until it is written.
    pub async fn close(&self) {
        let _ = self.write.send(Message::Close(None)).await;
        let _ = tokio::time::timeout(Duration::from_secs(5), self.write.closed()).await;
    }

    /// The methods the host sent, in order.
    pub fn methods(&self) -> Vec<String> {
        lock(&self.requests)
            .iter()
            .map(|(method, _)| method.clone())
            .collect()
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// One connection: the daemon's method table for what a host sends, answers routed to the
/// calls waiting for them.
async fn serve(stream: tokio::net::TcpStream, config: Config, sessions: mpsc::Sender<Session>) {
    let Ok(socket) = tokio_tungstenite::accept_async(stream).await else {
        return;
    };
    let (mut sink, mut read) = socket.split();
    let (write, mut outgoing) = mpsc::channel::<Message>(64);
    let writer = tokio::spawn(async move {
        while let Some(message) = outgoing.recv().await {
            let closing = matches!(message, Message::Close(_));
            if sink.send(message).await.is_err() || closing {
                return;
            }
        }
    });
    let waiting: Waiting = Arc::default();
    let requests: Arc<Mutex<Vec<(String, Value)>>> = Arc::default();
    let mut authenticated = config.token.is_none();
    let mut negotiated: Option<Vec<String>> = None;
    while let Some(Ok(message)) = read.next().await {
        let Message::Text(text) = message else {
            if matches!(message, Message::Close(_)) {
                break;
            }
            continue;
        };
        let Ok(parsed) = serde_json::from_str::<handler::JsonRpcMessage>(text.as_str()) else {
            continue;
        };
        // Is this a response to a pending tool callback?
        if parsed.method.is_none() && (parsed.result.is_some() || parsed.error.is_some()) {
            let waiter = parsed.id.as_str().and_then(|id| lock(&waiting).remove(id));
            if let Some(tx) = waiter {
                let _ = tx.send(parsed);
            }
            continue;
        }
        let Some(method) = parsed.method.clone() else {
            continue;
        };
        lock(&requests).push((method.clone(), parsed.params.clone()));
        let answer = match method.as_str() {
            "session.auth" => {
                let token = parsed.params.get("token").and_then(Value::as_str);
                if config.token.is_none() || token == config.token.as_deref() {
                    authenticated = true;
                    Ok(json!({"ok": true}))
                } else {
                    Err((-32001, "auth required: a wrong token".to_owned()))
                }
            }
            _ if !authenticated => Err((-32001, "auth required".to_owned())),
            "server.handshake" => match handshake(&parsed, config.callback_state) {
                Ok((result, capabilities)) => {
                    negotiated = Some(capabilities);
                    Ok(result)
                }
                Err(error) => Err((i64::from(error.code), error.message)),
            },
            _ if negotiated.is_none() => Err((
                i64::from(car_proto::PROTOCOL_HANDSHAKE_REQUIRED_ERROR_CODE),
                format!(
                    "{} call `server.handshake` first",
                    car_proto::PROTOCOL_HANDSHAKE_REQUIRED_MESSAGE_PREFIX
                ),
            )),
            "tools.register" => {
                match serde_json::from_value::<Vec<ToolDefinition>>(parsed.params.clone()) {
                    Ok(tools) => {
                        let capabilities = negotiated.clone().unwrap_or_default();
                        let callback_state = capabilities
                            .iter()
                            .any(|c| c == car_proto::TOOLS_CALLBACK_STATE_CAPABILITY);
                        let count = tools.len();
                        let session = Session {
                            tools,
                            requests: requests.clone(),
                            negotiated: capabilities,
                            write: write.clone(),
                            waiting: waiting.clone(),
                            next: AtomicU64::new(1),
                            callback_state,
                        };
                        let _ = sessions.send(session).await;
                        Ok(json!(count))
                    }
                    Err(error) => Err((-32602, error.to_string())),
                }
            }
            other => Err((-32601, format!("method not found: {other}"))),
        };
        if parsed.id.is_null() {
            continue;
        }
        let frame = match answer {
            Ok(result) => json!({"jsonrpc": "2.0", "id": parsed.id, "result": result}),
            Err((code, message)) => json!({
                "jsonrpc": "2.0",
                "id": parsed.id,
                "error": {"code": code, "message": message},
            }),
        };
        if write.send(Message::text(frame.to_string())).await.is_err() {
            break;
        }
    }
    lock(&waiting).clear();
    writer.abort();
}

/// `server.handshake`, negotiated through car's own functions.
fn handshake(
    request: &handler::JsonRpcMessage,
    callback_state: bool,
) -> Result<(Value, Vec<String>), handler::ProtocolHandshakeError> {
    let params = handler::parse_server_handshake_params(&request.params)?;
    let client = handler::client_range(&params);
    let version =
        car_proto::negotiate_protocol_version(car_proto::ProtocolRange::SUPPORTED, client)
            .map_err(|(server, client)| handler::ProtocolHandshakeError {
                code: car_proto::PROTOCOL_VERSION_MISMATCH_ERROR_CODE,
                message: format!(
                    "{} this daemon speaks {server}, the client {client}",
                    car_proto::PROTOCOL_VERSION_MISMATCH_MESSAGE_PREFIX
                ),
            })?;
    let optional: Vec<String> = params
        .optional_capabilities
        .iter()
        .filter(|c| callback_state || *c != car_proto::TOOLS_CALLBACK_STATE_CAPABILITY)
        .cloned()
        .collect();
    let capabilities = car_proto::negotiate_capabilities(&params.required_capabilities, &optional)
        .map_err(|missing| handler::ProtocolHandshakeError {
            code: car_proto::PROTOCOL_CAPABILITY_MISMATCH_ERROR_CODE,
            message: format!(
                "{} unsupported mandatory capabilities: {}",
                car_proto::PROTOCOL_CAPABILITY_MISMATCH_MESSAGE_PREFIX,
                missing.join(", ")
            ),
        })?;
    let result = json!({
        "protocol_version": version,
        "server_protocol_version_min": car_proto::ProtocolRange::SUPPORTED.min,
        "server_protocol_version_max": car_proto::ProtocolRange::SUPPORTED.max,
        "server_version": "test-peer",
        "client_protocol_version": params.protocol_version,
        "negotiated_capabilities": capabilities,
    });
    Ok((result, capabilities))
}
