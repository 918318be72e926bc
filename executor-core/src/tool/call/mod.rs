//! The call path every tool runs on: the argument decoder ([`args`]), the one panic
//! boundary ([`CatchUnwind`]), the deadline and cancellation guard ([`drive`]), the
//! context-free fast path ([`context_free_output`], [`call_context_free`]), and sync tools on the
//! blocking pool ([`call_blocking`]).

pub(crate) mod adapt;
pub(crate) mod args;
mod blocking;
mod catch;
pub(crate) mod context_free;
pub(crate) mod drive;

pub use blocking::{
    BlockingBodies, DEFAULT_MAX_BLOCKING_BODIES, blocking_bodies, call_blocking,
    max_blocking_bodies, set_max_blocking_bodies,
};
pub use catch::{CatchUnwind, Panic};
pub use context_free::{call_context_free, context_free_output};
pub use drive::{drive, finish};

/// Names the parts of a `Result` return type, so aliases like `io::Result<T>` work.
pub trait ResultParts {
    /// The success type.
    type Ok;
    /// The error type.
    type Err;
    /// Back to a plain `Result`.
    ///
    /// # Errors
    /// The error the value holds.
    fn into_result(self) -> Result<Self::Ok, Self::Err>;
}

impl<T, E> ResultParts for Result<T, E> {
    type Ok = T;
    type Err = E;
    #[inline]
    fn into_result(self) -> Result<T, E> {
        self
    }
}
