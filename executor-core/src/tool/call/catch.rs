//! The one panic boundary: every future that runs user code is polled inside [`CatchUnwind`].

use std::any::Any;
use std::fmt;
use std::future::Future;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::pin::Pin;
use std::task::{Context, Poll};

use crate::failure::{FailureKind, ToolFailure};

pin_project_lite::pin_project! {
    /// Polls `fut` under `catch_unwind` (the shape of `futures-util`'s `CatchUnwind`): its
    /// output, or the [`Panic`] that ended it. A plain struct around `fut`: no state machine
    /// and no allocation of its own.
    #[must_use = "futures do nothing unless awaited"]
    pub struct CatchUnwind<F> {
        #[pin]
        fut: F,
    }
}

impl<F> CatchUnwind<F> {
    /// `fut` behind the panic boundary.
    #[inline]
    pub const fn new(fut: F) -> Self {
        Self { fut }
    }
}

impl<F: Future> Future for CatchUnwind<F> {
    type Output = Result<F::Output, Panic>;

    #[inline]
    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let fut = self.project().fut;
        match catch_unwind(AssertUnwindSafe(|| fut.poll(cx))) {
            Ok(poll) => poll.map(Ok),
            Err(payload) => Poll::Ready(Err(Panic::from_payload(&*payload))),
        }
    }
}

/// A panic caught while polling: its text, kept for logs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Panic(String);

impl Panic {
    #[cold]
    fn from_payload(payload: &(dyn Any + Send)) -> Self {
        let text = payload
            .downcast_ref::<&str>()
            .map(|s| (*s).to_owned())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "non-string panic payload".to_owned());
        Self(text)
    }

    /// The panic's message.
    #[must_use]
    pub fn text(&self) -> &str {
        &self.0
    }

    /// The failure a panic in `tool` becomes: internal, coded `panic`, with this panic as its
    /// source, so logs see the text and models only "tool `x` panicked".
    #[cold]
    #[must_use]
    pub fn into_failure(self, tool: &str) -> ToolFailure {
        ToolFailure::ordinary(format!("tool `{tool}` panicked"))
            .with_kind(FailureKind::Internal)
            .with_code("panic")
            .with_source(self)
    }
}

impl fmt::Display for Panic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "panic: {}", self.0)
    }
}

impl std::error::Error for Panic {}

/// Flattens a caught tool call: its own result, or the panic as a failure of `tool`.
#[inline]
pub(crate) fn flatten<T>(
    tool: &str,
    caught: Result<Result<T, ToolFailure>, Panic>,
) -> Result<T, ToolFailure> {
    caught.unwrap_or_else(|panic| Err(panic.into_failure(tool)))
}
