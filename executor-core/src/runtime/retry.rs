//! `RetryPolicy`: how many attempts, how long between them, and which tools may be retried.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use crate::failure::ToolFailure;
use crate::failure::transport::{RetryDecision, for_retry};
use crate::tool::ToolAnnotations;

/// When and how often a [`Runtime`](super::Runtime) tries a call again.
///
/// The delay before attempt `n + 1` is drawn uniformly from `0..=min(max_delay, base × 2^(n−1))`
/// ("full jitter", so callers that failed together do not come back together), and is never
/// shorter than the failure's [`retry_after`](ToolFailure::retry_after) hint.
///
/// What is retried is read from [`for_retry`], the crate's one failure table: ordinary failures
/// are; terminal, unhandled, invalid-argument, unknown-tool and cancelled ones are not. On top
/// of the table, the tool's hints ([`ToolAnnotations`]) are read as MCP reads them: a tool is
/// safe to repeat only when it says it is read-only or idempotent (and does not also say it is
/// not idempotent). Any other tool, **a tool without hints included**, may repeat its effect
/// when called again (MCP's defaults: not read-only, destructive, not idempotent), and is **not
/// retried unless [`retry_side_effects`](Self::retry_side_effects) opts in**.
///
/// ```
/// use tool_executor::runtime::RetryPolicy;
/// use std::time::Duration;
///
/// let policy = RetryPolicy::exponential(Duration::from_millis(50))
///     .max_attempts(5)
///     .max_delay(Duration::from_secs(2));
/// assert_eq!(policy.attempts(), 5);
/// assert_eq!(policy.delay_bound(1), Duration::from_millis(50));
/// assert_eq!(policy.delay_bound(3), Duration::from_millis(200));
/// assert_eq!(policy.delay_bound(10), Duration::from_secs(2));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RetryPolicy {
    attempts: u32,
    base: Duration,
    max_delay: Duration,
    side_effects: bool,
    seed: Option<u64>,
}

impl Default for RetryPolicy {
    /// 3 attempts, 100 ms base, 10 s cap, only tools that say they are read-only or idempotent
    /// retried.
    fn default() -> Self {
        Self::exponential(Duration::from_millis(100))
    }
}

impl RetryPolicy {
    /// One attempt: nothing is retried.
    #[must_use]
    pub fn none() -> Self {
        Self::exponential(Duration::ZERO).max_attempts(1)
    }

    /// Exponential backoff from `base` with full jitter: 3 attempts, delays capped at 10 s.
    #[must_use]
    pub fn exponential(base: Duration) -> Self {
        Self {
            attempts: 3,
            base,
            max_delay: Duration::from_secs(10),
            side_effects: false,
            seed: None,
        }
    }

    /// At most `attempts` attempts in all (the first try included; 0 is read as 1).
    #[must_use]
    pub fn max_attempts(mut self, attempts: u32) -> Self {
        self.attempts = attempts.max(1);
        self
    }

    /// No backoff delay longer than `max_delay` (a longer `retry_after` hint still wins).
    #[must_use]
    pub fn max_delay(mut self, max_delay: Duration) -> Self {
        self.max_delay = max_delay;
        self
    }

    /// Whether tools that may repeat their effect (any tool that does not say it is read-only or
    /// idempotent, one without hints included) are retried too (default `false`).
    #[must_use]
    pub fn retry_side_effects(mut self, retry: bool) -> Self {
        self.side_effects = retry;
        self
    }

    /// Draws the jitter from a generator seeded with `seed`, so a schedule can be replayed
    /// (tests). Without a seed each runtime seeds from the operating system.
    #[must_use]
    pub fn jitter_seed(mut self, seed: u64) -> Self {
        self.seed = Some(seed);
        self
    }

    /// The maximum number of attempts.
    #[must_use]
    pub const fn attempts(&self) -> u32 {
        self.attempts
    }

    /// Whether side-effecting tools are retried.
    #[must_use]
    pub const fn retries_side_effects(&self) -> bool {
        self.side_effects
    }

    /// Whether a failure of a tool with these hints (`None`: a tool without any) may be
    /// retried, as far as the hints go: the tool is safe to repeat, or the policy opts in.
    pub(super) fn may_repeat(&self, hints: Option<&ToolAnnotations>) -> bool {
        self.side_effects || !has_side_effects(hints)
    }

    /// The upper bound of the jittered delay after failed attempt `attempt` (1-based):
    /// `min(max_delay, base × 2^(attempt−1))`.
    #[must_use]
    pub fn delay_bound(&self, attempt: u32) -> Duration {
        let doublings = attempt.saturating_sub(1).min(63);
        let factor = 1u64 << doublings;
        let scaled = self
            .base
            .checked_mul(u32::try_from(factor).unwrap_or(u32::MAX))
            .unwrap_or(Duration::MAX);
        scaled.min(self.max_delay)
    }

    /// Whether a failure of a tool with these hints may be retried, and the least delay its
    /// hint asks for (zero without one).
    pub(super) fn decide(
        &self,
        failure: &ToolFailure,
        hints: Option<&ToolAnnotations>,
    ) -> Option<Duration> {
        let RetryDecision::Retry { after } = for_retry(failure) else {
            return None;
        };
        self.may_repeat(hints).then_some(after.unwrap_or_default())
    }

    /// The generator the jitter is drawn from: seeded as configured, else by the OS.
    pub(super) fn jitter(&self) -> Rng {
        self.seed.map_or_else(Rng::from_os, Rng::seeded)
    }
}

/// Whether repeating a call may repeat its effect, by the tool's hints read with MCP's
/// defaults (`readOnlyHint` false, `destructiveHint` true, `idempotentHint` false): unless the
/// tool says it is idempotent, or read-only without saying it is not idempotent. `None`, a tool
/// without hints, may.
pub(super) fn has_side_effects(hints: Option<&ToolAnnotations>) -> bool {
    let Some(hints) = hints else {
        return true;
    };
    let safe = hints.idempotent == Some(true)
        || (hints.read_only == Some(true) && hints.idempotent != Some(false));
    !safe
}

/// A small generator: splitmix64 over an atomic counter, so concurrent calls share one
/// generator without a lock, and a seed gives a replayable sequence. Not for secrets.
#[derive(Debug)]
pub(super) struct Rng(AtomicU64);

impl Rng {
    pub(super) fn seeded(seed: u64) -> Self {
        Self(AtomicU64::new(seed))
    }

    /// Seeded from the operating system's generator (`getrandom`); should that ever fail,
    /// std's per-process random hasher keys still give a seed nobody else shares.
    pub(super) fn from_os() -> Self {
        Self::seeded(getrandom::u64().unwrap_or_else(|_| {
            use std::hash::{BuildHasher, RandomState};
            RandomState::new().hash_one(0u8)
        }))
    }

    /// A uniform delay in `0..=bound`.
    pub(super) fn delay(&self, bound: Duration) -> Duration {
        // The top 53 bits as a fraction in [0, 1], exactly representable in an f64.
        #[allow(clippy::cast_precision_loss)] // 53 bits fit an f64's mantissa
        let unit = (self.next_u64() >> 11) as f64 / ((1u64 << 53) - 1) as f64;
        bound.mul_f64(unit)
    }

    /// 128 bits as 32 lowercase hex digits.
    pub(super) fn hex128(&self) -> String {
        let bits = (u128::from(self.next_u64()) << 64) | u128::from(self.next_u64());
        format!("{bits:032x}")
    }

    pub(super) fn next_u64(&self) -> u64 {
        let mut z = self
            .0
            .fetch_add(0x9E37_79B9_7F4A_7C15, Ordering::Relaxed)
            .wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}
