//! The limits of the streamable HTTP server ([`HttpLimits`]): how many sessions may be live,
//! how many requests may be in flight, how long an idle session is kept, which browser
//! origins may talk to it; and the pieces that enforce the request-side ones without a
//! session in sight: the in-flight count ([`InFlight`]) and the bounded body read
//! ([`read_body`]). Set through `McpServer`'s `with_*` methods (sessions.rs); read by the
//! gate there.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use http_body_util::BodyExt;
use hyper::body::{Body, Bytes};

use super::stdio::line::PREFIX_BYTES;

/// The default cap on live streamable HTTP sessions (2025-11-25 and older clients open one
/// with `initialize`; 2026-07-28 clients and stateless serving use none).
pub const DEFAULT_MAX_SESSIONS: usize = 256;

/// The default cap on HTTP requests in flight (POSTs being read or answered), sessions or not.
pub const DEFAULT_MAX_IN_FLIGHT: usize = 1024;

/// The default time an HTTP session may stay idle before it is closed (2 minutes).
pub const DEFAULT_SESSION_IDLE_TIMEOUT: Duration = Duration::from_secs(120);

/// How much of an oversized body is read and dropped so that its client reads the 413 rather
/// than a reset; past it, or past [`DRAIN_TIME`], the 413 says `Connection: close`.
const DRAIN_LIMIT: u64 = 1 << 30;

/// How long reading an oversized body to its end may take.
const DRAIN_TIME: Duration = Duration::from_secs(10);

/// The `Origin`s accepted by default: loopback pages only (any port, http or https).
const LOOPBACK_ORIGINS: [&str; 6] = [
    "http://localhost:*",
    "http://127.0.0.1:*",
    "http://[::1]:*",
    "https://localhost:*",
    "https://127.0.0.1:*",
    "https://[::1]:*",
];

/// The HTTP settings of an [`McpServer`](super::McpServer).
#[derive(Debug, Clone)]
pub(crate) struct HttpLimits {
    pub(crate) max_sessions: usize,
    pub(crate) max_in_flight: usize,
    pub(crate) idle_timeout: Duration,
    pub(crate) allowed_origins: Vec<String>,
}

impl Default for HttpLimits {
    fn default() -> Self {
        Self {
            max_sessions: DEFAULT_MAX_SESSIONS,
            max_in_flight: DEFAULT_MAX_IN_FLIGHT,
            idle_timeout: DEFAULT_SESSION_IDLE_TIMEOUT,
            allowed_origins: LOOPBACK_ORIGINS.map(str::to_owned).to_vec(),
        }
    }
}

/// The requests in flight, and how long a request has held its place lately (for
/// `Retry-After`).
pub(crate) struct InFlight {
    count: AtomicUsize,
    max: usize,
    /// A moving mean of the time from a request's arrival to the end of its response.
    mean_ms: AtomicU64,
}

impl InFlight {
    pub(crate) fn new(max: usize) -> Arc<Self> {
        Arc::new(Self {
            count: AtomicUsize::new(0),
            max,
            mean_ms: AtomicU64::new(0),
        })
    }

    pub(crate) fn max(&self) -> usize {
        self.max
    }

    /// A place, or `None` when every place is taken.
    pub(crate) fn enter(self: &Arc<Self>) -> Option<Permit> {
        // Counted first, so two requests racing for the last place cannot both take it.
        if self.count.fetch_add(1, Ordering::AcqRel) >= self.max {
            self.count.fetch_sub(1, Ordering::AcqRel);
            return None;
        }
        Some(Permit {
            in_flight: Arc::clone(self),
            since: Instant::now(),
        })
    }

    /// The seconds a refused client should wait: how long a request has lately held its place
    /// (a place frees when one ends), at least 1 s and at most a minute.
    pub(crate) fn retry_after(&self) -> u64 {
        self.mean_ms
            .load(Ordering::Relaxed)
            .div_ceil(1000)
            .clamp(1, 60)
    }
}

/// One request's place; given back when dropped, which the gate arranges for when its
/// response body ends or is dropped.
pub(crate) struct Permit {
    in_flight: Arc<InFlight>,
    since: Instant,
}

impl Drop for Permit {
    fn drop(&mut self) {
        let held = u64::try_from(self.since.elapsed().as_millis()).unwrap_or(u64::MAX);
        // An exponential moving mean, weight 1/8; a lost race loses one sample, no more.
        let mean = self.in_flight.mean_ms.load(Ordering::Relaxed);
        let next = if mean == 0 {
            held
        } else {
            mean - mean / 8 + held / 8
        };
        self.in_flight.mean_ms.store(next, Ordering::Relaxed);
        self.in_flight.count.fetch_sub(1, Ordering::AcqRel);
    }
}

/// A body over the limit: how much of it was seen, and whether it was read to its end (so
/// the connection can carry the next request).
#[derive(Debug)]
pub(crate) struct TooLarge {
    /// The declared length, or the bytes read when the body was drained to its end.
    pub(crate) length: Option<u64>,
    pub(crate) drained: bool,
    /// The body's first bytes (up to [`PREFIX_BYTES`]), to find the request's id in.
    pub(crate) prefix: Vec<u8>,
}

/// Reads a request body of at most `max` bytes. A longer one is read to its end and dropped
/// (up to [`DRAIN_LIMIT`] and [`DRAIN_TIME`]; a declared length past the drain limit is not
/// read at all), so that its client can read the 413 instead of meeting a reset; its first
/// bytes are kept to find the request's id in.
pub(crate) async fn read_body<B>(body: B, max: usize) -> Result<Bytes, TooLarge>
where
    B: Body<Data = Bytes> + Unpin,
{
    let declared = body.size_hint().upper();
    if let Some(length) = declared
        && length > max as u64
    {
        if length > DRAIN_LIMIT {
            return Err(TooLarge {
                length: Some(length),
                drained: false,
                prefix: Vec::new(),
            });
        }
        let mut prefix = Vec::new();
        let drained = drain(body, 0, &mut prefix).await;
        return Err(TooLarge {
            length: Some(length),
            drained: drained.is_some(),
            prefix,
        });
    }
    let mut body = body;
    let mut collected = Vec::new();
    while let Some(frame) = body.frame().await {
        let Ok(frame) = frame else {
            // A broken body: the connection is going; nothing more to read.
            return Err(TooLarge {
                length: None,
                drained: false,
                prefix: Vec::new(),
            });
        };
        let Ok(data) = frame.into_data() else {
            continue; // trailers
        };
        if collected.len() + data.len() > max {
            let read = (collected.len() + data.len()) as u64;
            collected.extend_from_slice(&data[..data.len().min(PREFIX_BYTES)]);
            collected.truncate(PREFIX_BYTES);
            let mut prefix = collected;
            let total = drain(body, read, &mut prefix).await;
            return Err(TooLarge {
                length: total,
                drained: total.is_some(),
                prefix,
            });
        }
        collected.extend_from_slice(&data);
    }
    Ok(Bytes::from(collected))
}

/// Reads and drops the rest of a body, keeping its first bytes in `prefix` (up to
/// [`PREFIX_BYTES`]); the total read when it reached its end in time.
async fn drain<B>(mut body: B, mut read: u64, prefix: &mut Vec<u8>) -> Option<u64>
where
    B: Body<Data = Bytes> + Unpin,
{
    let drain = async {
        while read <= DRAIN_LIMIT {
            match body.frame().await {
                Some(Ok(frame)) => {
                    let Some(data) = frame.data_ref() else {
                        continue;
                    };
                    let room = PREFIX_BYTES.saturating_sub(prefix.len());
                    prefix.extend_from_slice(&data[..data.len().min(room)]);
                    read += data.len() as u64;
                }
                Some(Err(_)) => return None,
                None => return Some(read),
            }
        }
        None
    };
    tokio::time::timeout(DRAIN_TIME, drain).await.ok().flatten()
}
