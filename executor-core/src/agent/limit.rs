//! The request body limit of a served agent, answered clearly.
//!
//! The server crate reads at most `max_request_body_size` bytes and answers a larger body with
//! a JSON-RPC *parse error* (-32700, HTTP 200) without reading it; a client still sending
//! then meets a closed socket, so from about 16 MiB it sees a connection reset and no answer.
//! In front of it, a body whose `Content-Length` is over the limit gets HTTP 413 with a
//! JSON-RPC -32600 naming the limit, after the body is read and dropped (up to
//! [`DRAIN_LIMIT`]) so the client can read the answer. A body without a length (chunked) is
//! still cut by the server crate, whose -32700 message names the limit too.

use std::convert::Infallible;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use a2a_protocol_server::RequestHandler;
use a2a_protocol_server::serve::{DispatchResponse, Dispatcher};
use http_body_util::{BodyExt, Full};
use hyper::body::{Body, Bytes, Incoming};

/// The default bound on one A2A request body (4 MiB, the server crate's own default).
pub const DEFAULT_MAX_A2A_REQUEST_BYTES: usize = 4 * 1024 * 1024;

/// How much of an oversized body is read (and dropped) so its client gets the 413; past this
/// the connection is closed instead.
const DRAIN_LIMIT: u64 = 64 * 1024 * 1024;

/// How long reading an oversized body to its end may take.
const DRAIN_TIME: Duration = Duration::from_secs(10);

/// A dispatcher that answers bodies over `max` bytes before `inner` sees them.
pub(super) struct BodyLimit<D> {
    pub(super) inner: D,
    pub(super) max: usize,
}

impl<D: Dispatcher> Dispatcher for BodyLimit<D> {
    fn dispatch(
        &self,
        req: hyper::Request<Incoming>,
    ) -> Pin<Box<dyn Future<Output = DispatchResponse> + Send + '_>> {
        let declared = req.body().size_hint().upper();
        match declared {
            Some(length) if length > self.max as u64 => Box::pin(too_large(req, length, self.max)),
            _ => self.inner.dispatch(req),
        }
    }

    fn request_handler(&self) -> Option<&Arc<RequestHandler>> {
        self.inner.request_handler()
    }
}

/// Reads the body to its end (bounded), then answers 413.
async fn too_large(req: hyper::Request<Incoming>, length: u64, max: usize) -> DispatchResponse {
    let mut body = req.into_body();
    let mut read = 0u64;
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
    let drained = tokio::time::timeout(DRAIN_TIME, drain)
        .await
        .unwrap_or(false);
    let error = serde_json::json!({
        "jsonrpc": "2.0",
        "id": null,
        "error": {
            "code": -32600,
            "message": format!(
                "request body of {length} bytes exceeds the {max}-byte limit \
                 (AgentServer::with_max_request_bytes)"
            ),
        },
    });
    let mut response = hyper::Response::new(
        Full::new(Bytes::from(error.to_string()))
            .map_err(|never: Infallible| match never {})
            .boxed(),
    );
    *response.status_mut() = hyper::StatusCode::PAYLOAD_TOO_LARGE;
    let headers = response.headers_mut();
    headers.insert(
        hyper::header::CONTENT_TYPE,
        hyper::header::HeaderValue::from_static("application/json"),
    );
    if !drained {
        // The rest of the body is not read: tell the client the connection ends here.
        headers.insert(
            hyper::header::CONNECTION,
            hyper::header::HeaderValue::from_static("close"),
        );
    }
    response
}
