//! One future adapter for the call path's result conversions: a future whose output is
//! converted by a zero-sized [`Conversion`] (no closure stored, nothing allocated), so the
//! typed call, the seed's strings and the context-free entry share one pin projection.

use std::future::Future;
use std::marker::PhantomData;
use std::pin::Pin;
use std::task::{Context, Poll};

use serde_json::Value;

use crate::failure::ToolFailure;
use crate::failure::transport::for_seed;
use crate::tool::execution::ToolExecution;

/// A conversion of a call's result, named by a type so [`Adapted`] stores none. It converts
/// the whole poll, so a conversion can match the ready result's variants in one `match`.
pub(crate) trait Conversion<In> {
    /// The converted result.
    type Out;
    /// Converts one poll of the adapted future.
    fn convert(poll: Poll<In>) -> Poll<Self::Out>;
}

pin_project_lite::pin_project! {
    /// `fut` with its output converted by `C`.
    #[must_use = "futures do nothing unless awaited"]
    pub(crate) struct Adapted<F, C> {
        #[pin]
        fut: F,
        conversion: PhantomData<fn() -> C>,
    }
}

impl<F, C> Adapted<F, C> {
    #[inline]
    pub(crate) const fn new(fut: F) -> Self {
        Self {
            fut,
            conversion: PhantomData,
        }
    }
}

impl<F: Future, C: Conversion<F::Output>> Future for Adapted<F, C> {
    type Output = C::Out;

    #[inline]
    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        C::convert(self.project().fut.poll(cx))
    }
}

/// An execution's output alone (its state changes dropped).
pub(crate) enum OutputOnly {}

impl Conversion<Result<ToolExecution, ToolFailure>> for OutputOnly {
    type Out = Result<Value, ToolFailure>;
    #[inline]
    fn convert(poll: Poll<Result<ToolExecution, ToolFailure>>) -> Poll<Self::Out> {
        poll.map(|result| result.map(ToolExecution::into_output))
    }
}

/// A context-free output as an execution without state changes. One `match` over the poll, so
/// the execution is written once, in place: a `map` inside a `map`, or a `match` of the result
/// alone, cost 14 instructions more per call (measured in BENCHMARKS.md §5).
pub(crate) enum Executed {}

impl Conversion<Result<Value, ToolFailure>> for Executed {
    type Out = Result<ToolExecution, ToolFailure>;
    #[inline]
    fn convert(poll: Poll<Result<Value, ToolFailure>>) -> Poll<Self::Out> {
        match poll {
            Poll::Ready(Ok(output)) => Poll::Ready(Ok(ToolExecution::output_only(output))),
            Poll::Ready(Err(failure)) => Poll::Ready(Err(failure)),
            Poll::Pending => Poll::Pending,
        }
    }
}

/// A result as the seed's string layers see it: the output alone, a failure as its text
/// ([`for_seed`]).
pub(crate) enum ForSeed {}

impl Conversion<Result<Value, ToolFailure>> for ForSeed {
    type Out = Result<Value, String>;
    #[inline]
    fn convert(poll: Poll<Result<Value, ToolFailure>>) -> Poll<Self::Out> {
        poll.map(|result| result.map_err(|failure| for_seed(&failure)))
    }
}

impl Conversion<Result<ToolExecution, ToolFailure>> for ForSeed {
    type Out = Result<Value, String>;
    #[inline]
    fn convert(poll: Poll<Result<ToolExecution, ToolFailure>>) -> Poll<Self::Out> {
        <Self as Conversion<_>>::convert(OutputOnly::convert(poll))
    }
}
