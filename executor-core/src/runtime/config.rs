//! The runtime's configuration, shared by every call ([`Config`]): what it decides before and
//! after an attempt (keys, guards, the next delay, the checks a success must pass).

use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::Duration;

use serde_json::Value;
use tokio::time::Instant;

use super::check;
use super::limit::Limits;
use super::retry::{RetryPolicy, Rng, has_side_effects};
use crate::failure::ToolFailure;
use crate::tool::{SpecList, ToolAnnotations, ToolExecution, ToolExecutor};

/// What a runtime was configured with; shared by its calls and its detached tasks.
pub(super) struct Config {
    pub(super) executor: Arc<dyn ToolExecutor>,
    /// The hints of the tools whose spec has any, by name, read once from `specs()`.
    pub(super) hints: HashMap<String, ToolAnnotations>,
    /// The tools whose hints say they are safe to repeat (read-only or idempotent), so the
    /// check for a key costs no lookup when there are none (BENCHMARKS.md §11).
    pub(super) repeatable: HashSet<String>,
    /// Whether any call may get a key ([`Config::refresh_keys`]): one load on
    /// `Runtime::call`'s fast path when none can (BENCHMARKS.md §11).
    pub(super) mints_keys: bool,
    pub(super) policy: RetryPolicy,
    pub(super) jitter: Arc<Rng>,
    pub(super) keys: Arc<Rng>,
    pub(super) attempt_timeout: Option<Duration>,
    pub(super) call_timeout: Option<Duration>,
    pub(super) i_json: bool,
    pub(super) limits: Limits,
    pub(super) handle_ttl: Duration,
    /// Output schemas to validate against (feature `validate`), when switched on.
    #[cfg(feature = "validate")]
    pub(super) outputs: Option<Arc<super::validate::Validators>>,
}

impl Clone for Config {
    fn clone(&self) -> Self {
        Self {
            executor: Arc::clone(&self.executor),
            hints: self.hints.clone(),
            repeatable: self.repeatable.clone(),
            mints_keys: self.mints_keys,
            policy: self.policy.clone(),
            jitter: Arc::clone(&self.jitter),
            keys: Arc::clone(&self.keys),
            attempt_timeout: self.attempt_timeout,
            call_timeout: self.call_timeout,
            i_json: self.i_json,
            limits: self.limits.clone(),
            handle_ttl: self.handle_ttl,
            #[cfg(feature = "validate")]
            outputs: self.outputs.clone(),
        }
    }
}

impl Config {
    /// The hints the executor lists for its tools (only those with any), and which of them
    /// say they are safe to repeat.
    pub(super) fn read_hints(
        specs: &SpecList,
    ) -> (HashMap<String, ToolAnnotations>, HashSet<String>) {
        let hints: HashMap<String, ToolAnnotations> = specs
            .iter()
            .filter(|spec| spec.annotations != ToolAnnotations::default())
            .map(|spec| (spec.name.clone(), spec.annotations.clone()))
            .collect();
        let repeatable = hints
            .iter()
            .filter(|(_, hints)| !has_side_effects(Some(hints)))
            .map(|(name, _)| name.clone())
            .collect();
        (hints, repeatable)
    }

    /// Whether a call of `tool` without a caller's key gets one: whenever the runtime may try
    /// it more than once (the policy allows a retry and the tool's hints, or the policy's
    /// opt-in, allow repeating it), so every attempt carries the same key. A call that gets one
    /// attempt gets no key: it has no other attempt to be recognised by, and the key would
    /// cost an allocation (and, on `Runtime::call`, the boxed path) per call.
    #[inline]
    pub(super) fn makes_keys_for(&self, tool: &str) -> bool {
        self.mints_keys && (self.policy.retries_side_effects() || self.repeatable.contains(tool))
    }

    /// Sets [`mints_keys`](Self::mints_keys) from the policy and the hints: some call may be
    /// tried more than once. Called whenever either changes.
    pub(super) fn refresh_keys(&mut self) {
        self.mints_keys = self.policy.attempts() > 1
            && (self.policy.retries_side_effects() || !self.repeatable.is_empty());
    }

    /// Whether a call of `tool` with the default options runs unguarded: no time limit, no
    /// concurrency limit and no idempotency key to make.
    #[inline]
    pub(super) fn guards_nothing(&self, tool: &str) -> bool {
        self.call_timeout.is_none()
            && self.attempt_timeout.is_none()
            && !self.limits.applies_to(tool)
            && !self.makes_keys_for(tool)
    }

    /// How long to wait before retrying after `failure` on attempt `attempt`, or `None` to stop:
    /// no attempts left, a failure the policy does not retry, or a delay the deadline cannot
    /// fit (the hint is never shortened to fit).
    pub(super) fn next_delay(
        &self,
        tool: &str,
        attempt: u32,
        failure: &ToolFailure,
        deadline: Option<Instant>,
    ) -> Option<Duration> {
        if attempt >= self.policy.attempts() {
            return None;
        }
        let hint = self.policy.decide(failure, self.hints.get(tool))?;
        let jittered = self.jitter.delay(self.policy.delay_bound(attempt));
        let delay = jittered.max(hint);
        match deadline {
            Some(deadline) if Instant::now() + delay >= deadline => None,
            _ => Some(delay),
        }
    }
}

impl Config {
    /// Checks `execution` of `tool` as configured: I-JSON numbers, the expected effects' keys,
    /// then the output schema. A failure is terminal (the tool has run; the same call would
    /// answer the same way).
    #[inline]
    pub(super) fn check(
        &self,
        tool: &str,
        execution: &ToolExecution,
        expected: Option<&HashMap<String, Value>>,
    ) -> Result<(), ToolFailure> {
        check::execution(tool, execution, self.i_json, expected)?;
        #[cfg(feature = "validate")]
        if let Some(outputs) = &self.outputs {
            outputs.check(tool, &execution.output)?;
        }
        Ok(())
    }
}
