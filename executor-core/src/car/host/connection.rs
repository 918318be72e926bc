//! One WebSocket connection to a car daemon: a driver task that owns the socket, reads every
//! frame, writes every answer, runs each `tools.execute` as its own task and aborts it on
//! `tools.cancel`; and the requests this host sends (`session.auth`, `server.handshake`,
//! `tools.register`, the caller's own).

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::Value;
use tokio::net::TcpStream;
use tokio::sync::{mpsc, oneshot, watch};
use tokio::task::{AbortHandle, JoinSet};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

use super::error::{CarHostError, RpcError};
use super::wire::{self, CancelParams, ExecuteParams, Frame};
use crate::failure::ToolFailure;
use crate::tool::ToolExecutor;

/// Frames waiting for the driver to write them.
const OUTGOING_CAPACITY: usize = 64;

/// The bounds of one connection.
#[derive(Debug, Clone, Copy)]
pub(super) struct Limits {
    pub max_message_bytes: usize,
    pub max_concurrent_calls: usize,
    pub max_pending_requests: usize,
    pub request_timeout: Duration,
    pub write_timeout: Duration,
}

type Answer = oneshot::Sender<Result<Value, RpcError>>;

/// What the session handle and the driver share.
pub(super) struct Link {
    outgoing: mpsc::Sender<Message>,
    pending: Mutex<HashMap<u64, Answer>>,
    next_id: AtomicU64,
    callback_state: AtomicBool,
    in_flight: AtomicUsize,
    limits: Limits,
}

impl Link {
    /// Sends `method` and waits (bounded) for its answer.
    pub(super) async fn request(
        &self,
        method: &str,
        params: &Value,
    ) -> Result<Value, CarHostError> {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let (tx, rx) = oneshot::channel();
        {
            let mut pending = self.pending.lock().unwrap_or_else(PoisonError::into_inner);
            if pending.len() >= self.limits.max_pending_requests {
                return Err(CarHostError::Busy {
                    limit: self.limits.max_pending_requests,
                });
            }
            pending.insert(id, tx);
        }
        let forget = Forget(self, id);
        let frame = Message::text(wire::request(id, method, params));
        if frame.len() > self.limits.max_message_bytes {
            return Err(CarHostError::Connection(format!(
                "`{method}` is {} bytes, over the {}-byte message limit",
                frame.len(),
                self.limits.max_message_bytes
            )));
        }
        let closed = || CarHostError::Connection("the connection closed".into());
        self.outgoing.send(frame).await.map_err(|_| closed())?;
        let answer = tokio::time::timeout(self.limits.request_timeout, rx).await;
        drop(forget);
        match answer {
            Err(_) => Err(CarHostError::Timeout {
                method: method.to_owned(),
            }),
            Ok(Err(_)) => Err(closed()),
            Ok(Ok(answer)) => answer.map_err(CarHostError::Rpc),
        }
    }

    pub(super) fn set_callback_state(&self, negotiated: bool) {
        self.callback_state.store(negotiated, Ordering::Release);
    }

    pub(super) fn in_flight(&self) -> usize {
        self.in_flight.load(Ordering::Acquire)
    }

    pub(super) async fn close(&self) {
        let _ = self.outgoing.send(Message::Close(None)).await;
    }

    fn answer(&self, id: u64, answer: Result<Value, RpcError>) {
        let waiting = self
            .pending
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(&id);
        if let Some(waiting) = waiting {
            let _ = waiting.send(answer);
        }
    }
}

/// Takes a request out of the pending table however its wait ends.
struct Forget<'a>(&'a Link, u64);

impl Drop for Forget<'_> {
    fn drop(&mut self) {
        self.0
            .pending
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(&self.1);
    }
}

/// How a connection ended: `Ok` for the daemon's close frame.
pub(super) type End = Option<Result<(), CarHostError>>;

/// Opens the driver over `socket`: returns the shared link and the receiver of the end.
pub(super) fn start(
    socket: WebSocketStream<MaybeTlsStream<TcpStream>>,
    executor: Arc<dyn ToolExecutor>,
    limits: Limits,
) -> (Arc<Link>, watch::Receiver<End>, AbortHandle) {
    let (outgoing, queued) = mpsc::channel(OUTGOING_CAPACITY);
    let link = Arc::new(Link {
        outgoing,
        pending: Mutex::new(HashMap::new()),
        next_id: AtomicU64::new(1),
        callback_state: AtomicBool::new(false),
        in_flight: AtomicUsize::new(0),
        limits,
    });
    let (end_tx, end_rx) = watch::channel(None);
    let driver = Driver {
        link: link.clone(),
        executor,
        calls: JoinSet::new(),
        running: HashMap::new(),
        tasks: HashMap::new(),
    };
    let task = tokio::spawn(driver.run(socket, queued, end_tx));
    (link, end_rx, task.abort_handle())
}

struct Driver {
    link: Arc<Link>,
    executor: Arc<dyn ToolExecutor>,
    calls: JoinSet<()>,
    /// Calls in flight by the `request_id` `tools.cancel` names.
    running: HashMap<String, AbortHandle>,
    tasks: HashMap<tokio::task::Id, String>,
}

impl Driver {
    async fn run(
        mut self,
        socket: WebSocketStream<MaybeTlsStream<TcpStream>>,
        mut queued: mpsc::Receiver<Message>,
        end: watch::Sender<End>,
    ) {
        let (mut write, mut read) = socket.split();
        let write_timeout = self.link.limits.write_timeout;
        let outcome = loop {
            tokio::select! {
                frame = read.next() => match frame {
                    None => break Err(CarHostError::Connection("the daemon closed the socket".into())),
                    Some(Err(error)) => break Err(CarHostError::Connection(error.to_string())),
                    Some(Ok(Message::Close(_))) => break Ok(()),
                    Some(Ok(Message::Text(text))) => self.on_text(text.as_str()),
                    Some(Ok(_)) => {}
                },
                Some(message) = queued.recv() => {
                    let closing = matches!(message, Message::Close(_));
                    match tokio::time::timeout(write_timeout, write.send(message)).await {
                        Ok(Ok(())) if closing => break Ok(()),
                        Ok(Ok(())) => {}
                        Ok(Err(error)) => break Err(CarHostError::Connection(error.to_string())),
                        Err(_) => break Err(CarHostError::Connection(format!(
                            "a frame could not be written within {write_timeout:?}"
                        ))),
                    }
                }
                Some(joined) = self.calls.join_next_with_id(), if !self.calls.is_empty() => {
                    let id = match joined {
                        Ok((id, ())) => id,
                        Err(error) => error.id(),
                    };
                    if let Some(request) = self.tasks.remove(&id) {
                        self.running.remove(&request);
                    }
                    self.link.in_flight.store(self.calls.len(), Ordering::Release);
                }
            }
        };
        // Dropping the calls drops every tool future still running: nobody can take their
        // answers any more.
        self.calls.abort_all();
        self.link.in_flight.store(0, Ordering::Release);
        self.link
            .pending
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clear();
        let _ = end.send(Some(outcome));
    }

    fn on_text(&mut self, text: &str) {
        let Ok(frame) = serde_json::from_str::<Frame>(text) else {
            return;
        };
        match frame.method.as_deref() {
            Some("tools.execute") if !frame.id.is_null() => self.execute(frame.id, frame.params),
            Some("tools.cancel") => self.cancel(&frame.params),
            Some(method) if !frame.id.is_null() => {
                self.reply(wire::method_not_found(&frame.id, method));
            }
            Some(_) => {}
            None => {
                let Some(id) = frame.id.as_u64() else { return };
                let answer = match (frame.result, frame.error) {
                    (_, Some(error)) => Err(RpcError::from_value(&error)),
                    (result, None) => Ok(result.unwrap_or(Value::Null)),
                };
                self.link.answer(id, answer);
            }
        }
    }

    /// Answers without a call (a refusal); dropped if the queue is full, which only happens
    /// when the daemon stopped reading.
    fn reply(&self, text: String) {
        let _ = self.link.outgoing.try_send(Message::text(text));
    }

    fn execute(&mut self, id: Value, params: Value) {
        let params: ExecuteParams = match serde_json::from_value(params) {
            Ok(params) => params,
            Err(error) => {
                let failure = ToolFailure::ordinary(format!("malformed tools.execute: {error}"))
                    .with_code("invalid_request");
                return self.reply(wire::failure(&id, &failure));
            }
        };
        let limit = self.link.limits.max_concurrent_calls;
        if self.calls.len() >= limit {
            let failure = ToolFailure::ordinary(format!(
                "tool host busy: {limit} calls already running on this connection"
            ))
            .with_code("host_busy")
            .with_retry_after(Duration::from_millis(100));
            return self.reply(wire::failure(&id, &failure));
        }
        let key = if params.request_id.is_empty() {
            id.to_string()
        } else {
            params.request_id.clone()
        };
        if self.running.contains_key(&key) {
            let failure = ToolFailure::ordinary(format!("request `{key}` is already running"))
                .with_code("duplicate_request");
            return self.reply(wire::failure(&id, &failure));
        }
        let call = call(
            self.executor.clone(),
            self.link.clone(),
            id,
            params,
            self.link.callback_state.load(Ordering::Acquire),
        );
        let handle = self.calls.spawn(call);
        self.tasks.insert(handle.id(), key.clone());
        self.running.insert(key, handle);
        self.link
            .in_flight
            .store(self.calls.len(), Ordering::Release);
    }

    /// `tools.cancel`: the daemon stopped waiting; the call's task is aborted, which drops the
    /// tool's future. No answer is owed (a notification).
    fn cancel(&mut self, params: &Value) {
        let Ok(cancel) = serde_json::from_value::<CancelParams>(params.clone()) else {
            return;
        };
        if let Some(handle) = self.running.remove(&cancel.request_id) {
            handle.abort();
        }
    }
}

/// One `tools.execute`: our one context path (`execute_classified` with the action id, the
/// budget, the session and the attempt), answered by the failure table's car row.
async fn call(
    executor: Arc<dyn ToolExecutor>,
    link: Arc<Link>,
    id: Value,
    params: ExecuteParams,
    callback_state: bool,
) {
    let no_effects = HashMap::new();
    let result = executor
        .execute_classified(
            &params.tool,
            &params.parameters,
            &params.action_id,
            params.timeout_ms,
            params.session_id.as_deref(),
            params.attempt.max(1),
            &no_effects,
            None,
        )
        .await;
    let mut text = match result {
        Ok(execution) => wire::success(&id, execution, callback_state),
        Err(failure) => wire::failure(&id, &failure),
    };
    let limit = link.limits.max_message_bytes;
    if text.len() > limit {
        let failure = ToolFailure::ordinary(format!(
            "tool `{}` answered {} bytes, over the {limit}-byte message limit",
            params.tool,
            text.len()
        ))
        .with_code("output_too_large");
        text = wire::failure(&id, &failure);
    }
    let _ = link.outgoing.send(Message::text(text)).await;
}
