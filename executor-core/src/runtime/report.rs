//! `CallReport`: what a call through the runtime took besides its result.

use std::time::Duration;

/// What one call through a [`Runtime`](super::Runtime) took: the attempts it made and the time
/// it spent in backoff between them. [`Runtime::call_with_report`](super::Runtime::call_with_report)
/// returns it beside the call's result; the other methods keep nothing of it, so a call that
/// does not ask pays nothing for it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct CallReport {
    /// The attempts started, the last included (1 for a call that succeeded or stopped at
    /// once; 0 only for a call that ended before its first attempt began).
    pub attempts: u32,
    /// The time spent waiting between attempts (the backoff delays as slept, by Tokio's
    /// clock), not the attempts' own time nor the wait for a concurrency slot.
    pub waited: Duration,
}
