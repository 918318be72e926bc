//! The request body limit of a served agent, answered clearly.
//!
//! The server crate reads at most `max_request_body_size` bytes and answers a larger body with
//! a JSON-RPC *parse error* (-32700, HTTP 200) without reading the rest; a client still
//! sending then meets a closed socket, a connection reset and no answer. In front of it,
//! every body over the limit gets HTTP 413 with a JSON-RPC -32600 naming the limit, after the
//! body is read and dropped (up to [`DRAIN_LIMIT`] and [`DRAIN_TIME`]) so the client reads
//! the answer and the connection carries its next request:
//! - a body whose `Content-Length` is over the limit is answered without being buffered;
//! - a body without a length (chunked) is read here, up to the limit; one that fits is handed
//!   to the server crate as a request of its own with that length (the dispatcher takes only
//!   hyper's `Incoming` body, which only a hyper connection makes: [`redispatch`]).
//!
//! Also here, the bound on an SSE stream its client does not read ([`bound_stream`]): the
//! server crate holds every event a reader has not taken (measured: a stream of 4,000
//! artifacts of 20 kB grew the server by 84 MiB while its client read nothing, 20 MiB when it
//! read), so the stream is read eagerly into a queue bounded in bytes, and a client that falls
//! further behind has its stream ended.

use std::convert::Infallible;
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll};
use std::time::Duration;

use a2a_protocol_server::RequestHandler;
use a2a_protocol_server::serve::{DispatchResponse, Dispatcher};
use http_body_util::{BodyExt, Empty, Full};
use hyper::body::{Body, Bytes, Frame, Incoming, SizeHint};
use hyper_util::rt::TokioIo;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::sync::mpsc;

/// The default bound on one A2A request body (4 MiB, the server crate's own default).
pub const DEFAULT_MAX_A2A_REQUEST_BYTES: usize = 4 * 1024 * 1024;

/// The default bound on the bytes of an SSE stream waiting for its client (8 MiB); past it
/// the stream is ended.
pub const DEFAULT_MAX_A2A_PENDING_OUTPUT: usize = 8 * 1024 * 1024;

/// How much of an oversized body is read (and dropped) so its client gets the 413; past this
/// the connection is closed instead.
const DRAIN_LIMIT: u64 = 1 << 30;

/// How long reading an oversized body to its end may take.
const DRAIN_TIME: Duration = Duration::from_secs(10);

/// A dispatcher that answers bodies over `max` bytes before `inner` sees them, and bounds the
/// SSE streams it answers with to `max_pending_output` unread bytes.
pub(super) struct BodyLimit<D> {
    pub(super) inner: D,
    pub(super) max: usize,
    pub(super) max_pending_output: usize,
    /// Answers the RFC 9728 metadata path (`ToolAgent::with_oauth`).
    #[cfg(feature = "oauth")]
    pub(super) oauth: Option<crate::auth::ResourceServer>,
}

impl<D: Dispatcher> Dispatcher for BodyLimit<D> {
    fn dispatch(
        &self,
        req: hyper::Request<Incoming>,
    ) -> Pin<Box<dyn Future<Output = DispatchResponse> + Send + '_>> {
        let hint = req.body().size_hint();
        #[cfg(feature = "oauth")]
        if req.method() == hyper::Method::GET
            && let Some(oauth) = &self.oauth
            && let Some(metadata) = super::oauth::metadata(oauth, req.uri().path())
        {
            return Box::pin(std::future::ready(metadata));
        }
        Box::pin(async move {
            let response = match hint.upper() {
                Some(length) if length > self.max as u64 => {
                    return too_large(req.into_body(), Some(length), self.max).await;
                }
                Some(_) => self.inner.dispatch(req).await,
                None => self.without_length(req).await,
            };
            bound_stream(response, self.max_pending_output)
        })
    }

    fn request_handler(&self) -> Option<&Arc<RequestHandler>> {
        self.inner.request_handler()
    }
}

impl<D: Dispatcher> BodyLimit<D> {
    /// A body without a declared length: read here, bounded.
    async fn without_length(&self, req: hyper::Request<Incoming>) -> DispatchResponse {
        let (parts, mut body) = req.into_parts();
        let mut collected = Vec::new();
        while let Some(frame) = body.frame().await {
            let Ok(frame) = frame else {
                return bad_body();
            };
            let Ok(data) = frame.into_data() else {
                continue; // trailers
            };
            if collected.len() + data.len() > self.max {
                return too_large(body, None, self.max).await;
            }
            collected.extend_from_slice(&data);
        }
        redispatch(&self.inner, parts, Bytes::from(collected)).await
    }
}

/// Hands `parts` and `body` to `inner` as a request with a declared length.
///
/// A dispatcher takes a `Request<Incoming>`, and only a hyper connection makes an `Incoming`:
/// the body is written through an in-memory HTTP/1.1 connection, and the request it yields
/// gets the original method, URI, headers and extensions back. Only bodies sent chunked take
/// this path.
async fn redispatch<D: Dispatcher>(
    inner: &D,
    mut parts: hyper::http::request::Parts,
    body: Bytes,
) -> DispatchResponse {
    let (mut client, server) = tokio::io::duplex(64 * 1024);
    parts.headers.remove(hyper::header::TRANSFER_ENCODING);
    parts
        .headers
        .insert(hyper::header::CONTENT_LENGTH, body.len().into());
    let slot = Mutex::new(Some(parts));
    let answer = Mutex::new(None);
    let service = hyper::service::service_fn(|req: hyper::Request<Incoming>| {
        let parts = slot.lock().unwrap_or_else(PoisonError::into_inner).take();
        let answer = &answer;
        async move {
            if let Some(parts) = parts {
                let response = inner
                    .dispatch(hyper::Request::from_parts(parts, req.into_body()))
                    .await;
                *answer.lock().unwrap_or_else(PoisonError::into_inner) = Some(response);
            }
            Ok::<_, Infallible>(hyper::Response::new(Empty::<Bytes>::new()))
        }
    });
    let connection = hyper::server::conn::http1::Builder::new()
        .keep_alive(false)
        .serve_connection(TokioIo::new(server), service);
    let head = format!(
        "POST / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    let send = async {
        // Errors end the connection, which then reports no answer below.
        if client.write_all(head.as_bytes()).await.is_ok() && client.write_all(&body).await.is_ok()
        {
            let mut sink = Vec::new();
            let _ = client.read_to_end(&mut sink).await;
        }
    };
    let _ = tokio::join!(connection, send);
    let response = answer.lock().unwrap_or_else(PoisonError::into_inner).take();
    response.unwrap_or_else(bad_body)
}

/// Reads the rest of the body (bounded), then answers 413.
async fn too_large(mut body: Incoming, declared: Option<u64>, max: usize) -> DispatchResponse {
    let mut read = 0u64;
    let drained = if declared.is_some_and(|length| length > DRAIN_LIMIT) {
        false
    } else {
        let drain = async {
            while read <= DRAIN_LIMIT {
                match body.frame().await {
                    Some(Ok(frame)) => {
                        read += frame.data_ref().map_or(0, |d| d.len() as u64);
                    }
                    Some(Err(_)) | None => return true,
                }
            }
            false
        };
        tokio::time::timeout(DRAIN_TIME, drain)
            .await
            .unwrap_or(false)
    };
    let size = declared.map_or_else(String::new, |length| format!(" of {length} bytes"));
    let message = format!(
        "request body{size} exceeds the {max}-byte limit (AgentServer::with_max_request_bytes)"
    );
    let mut response = json_error(hyper::StatusCode::PAYLOAD_TOO_LARGE, -32600, &message);
    if !drained {
        // The rest of the body is not read: tell the client the connection ends here.
        response.headers_mut().insert(
            hyper::header::CONNECTION,
            hyper::header::HeaderValue::from_static("close"),
        );
    }
    response
}

/// A body that broke off while it was read.
fn bad_body() -> DispatchResponse {
    json_error(
        hyper::StatusCode::BAD_REQUEST,
        -32700,
        "the request body could not be read",
    )
}

fn json_error(status: hyper::StatusCode, code: i64, message: &str) -> DispatchResponse {
    let error = serde_json::json!({
        "jsonrpc": "2.0",
        "id": null,
        "error": {"code": code, "message": message},
    });
    let mut response = hyper::Response::new(
        Full::new(Bytes::from(error.to_string()))
            .map_err(|never: Infallible| match never {})
            .boxed(),
    );
    *response.status_mut() = status;
    response.headers_mut().insert(
        hyper::header::CONTENT_TYPE,
        hyper::header::HeaderValue::from_static("application/json"),
    );
    response
}

/// An SSE response read eagerly into a queue of at most `max` unread bytes; past that, the
/// client has its stream ended (after what was queued, and an SSE comment saying why) and the
/// server crate's reader is dropped. A client can resubscribe (`SubscribeToTask`) and catch
/// up from the task store. Other responses pass unchanged.
fn bound_stream(response: DispatchResponse, max: usize) -> DispatchResponse {
    let is_stream = response
        .headers()
        .get(hyper::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("text/event-stream"));
    if !is_stream {
        return response;
    }
    let (parts, mut inner) = response.into_parts();
    let pending = Arc::new(AtomicUsize::new(0));
    let (tx, rx) = mpsc::unbounded_channel();
    let queued = Arc::clone(&pending);
    tokio::spawn(async move {
        loop {
            let frame = tokio::select! {
                frame = inner.frame() => frame,
                () = tx.closed() => return,
            };
            let Some(Ok(frame)) = frame else { return };
            let len = frame.data_ref().map_or(0, Bytes::len);
            if queued.fetch_add(len, Ordering::AcqRel) + len > max {
                let note = format!(
                    ": stream ended: the client fell more than {max} bytes behind \
                     (AgentServer::with_max_pending_output); resubscribe to catch up\n\n"
                );
                let _ = tx.send(Frame::data(Bytes::from(note)));
                return;
            }
            if tx.send(frame).is_err() {
                return;
            }
        }
    });
    hyper::Response::from_parts(parts, Queued { rx, pending }.boxed())
}

/// The client's side of [`bound_stream`]'s queue.
struct Queued {
    rx: mpsc::UnboundedReceiver<Frame<Bytes>>,
    pending: Arc<AtomicUsize>,
}

impl Body for Queued {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        self.rx.poll_recv(cx).map(|frame| {
            frame.map(|frame| {
                let len = frame.data_ref().map_or(0, Bytes::len);
                self.pending.fetch_sub(len, Ordering::AcqRel);
                Ok(frame)
            })
        })
    }

    fn size_hint(&self) -> SizeHint {
        SizeHint::default()
    }
}
