//! The tools the car bridge is tested with, declared with `#[tools]` as a car user would.
//! Shared by `car_bridge.rs` (the macro against a copy of car-engine's trait) and by
//! `integration/car` (car's real `Runtime`; its `src/lib.rs` includes this file by path), so
//! both run the very same tools.

// Written as users write tools: async without awaits, owned parameters.
#![allow(clippy::unused_async, clippy::needless_pass_by_value)]

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use serde_json::{Value, json};
use tool_executor::prelude::*;

/// How the probe's tools fail.
#[derive(Debug, thiserror::Error, tool_executor::ToolFailure)]
pub enum ProbeError {
    /// Ordinary: car retries it.
    #[error("busy on attempt {attempt}")]
    #[failure(retry_after = "5ms", data)]
    Busy {
        /// The attempt that failed.
        attempt: u32,
    },
    /// Terminal: car stops the proposal.
    #[error("unknown city `{city}`")]
    #[failure(terminal, data)]
    UnknownCity {
        /// The city asked for.
        city: String,
    },
}

/// Tools that record what reached them: the attempts `flaky` saw and how many calls were
/// dropped before they finished (a timeout, a cancelled stream).
#[derive(Clone, Default)]
pub struct Probe {
    attempts: Arc<Mutex<Vec<u32>>>,
    dropped: Arc<AtomicU32>,
}

impl Probe {
    /// The attempt numbers `flaky` was called with, in order.
    #[must_use]
    pub fn attempts(&self) -> Vec<u32> {
        self.attempts
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// How many calls were dropped before they finished.
    #[must_use]
    pub fn dropped(&self) -> u32 {
        self.dropped.load(Ordering::SeqCst)
    }

    /// Waits (at most `limit`) until `n` calls were dropped; whether they were.
    pub async fn wait_dropped(&self, n: u32, limit: Duration) -> bool {
        let deadline = tokio::time::Instant::now() + limit;
        while self.dropped() < n {
            if tokio::time::Instant::now() >= deadline {
                return false;
            }
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        true
    }
}

/// Counts a call as dropped unless it is defused first.
struct Unfinished<'a>(Option<&'a AtomicU32>);

impl Unfinished<'_> {
    fn finish(mut self) {
        self.0 = None;
    }
}

impl Drop for Unfinished<'_> {
    fn drop(&mut self) {
        if let Some(count) = self.0 {
            count.fetch_add(1, Ordering::SeqCst);
        }
    }
}

#[tools]
impl Probe {
    /// Adds two numbers.
    #[tool(read_only, idempotent)]
    async fn add(&self, a: i64, b: i64) -> i64 {
        a + b
    }

    /// Reports what the call carried: action id, session, attempt, whether it has a budget,
    /// and the expected effects.
    #[tool]
    async fn whoami(&self, ctx: &ToolContext) -> Value {
        json!({
            "action_id": ctx.action_id(),
            "session_id": ctx.session_id(),
            "attempt": ctx.attempt(),
            "has_budget": ctx.deadline().is_some(),
            "expected_effects": ctx.expected_effects(),
        })
    }

    /// Fails (ordinary) before attempt `until`, then returns the attempts it saw.
    #[tool]
    async fn flaky(&self, until: u32, ctx: &ToolContext) -> Result<Vec<u32>, ProbeError> {
        let attempt = ctx.attempt();
        let seen = {
            let mut attempts = self.attempts.lock().unwrap_or_else(PoisonError::into_inner);
            attempts.push(attempt);
            attempts.clone()
        };
        if attempt < until {
            return Err(ProbeError::Busy { attempt });
        }
        Ok(seen)
    }

    /// Fails terminally for every city.
    #[tool]
    async fn forecast(&self, city: String) -> Result<String, ProbeError> {
        Err(ProbeError::UnknownCity { city })
    }

    /// Sleeps `ms` milliseconds and returns them.
    #[tool]
    async fn nap(&self, ms: u64) -> u64 {
        let unfinished = Unfinished(Some(&self.dropped));
        tokio::time::sleep(Duration::from_millis(ms)).await;
        unfinished.finish();
        ms
    }

    /// Records `value` under `key` as a state change.
    #[tool]
    async fn store(&self, key: String, value: Value, ctx: &ToolContext) -> bool {
        ctx.record_state_change(key, value);
        true
    }

    /// Streams `line 0`, `line 1`, … every 10 ms, with progress, until it is dropped.
    #[tool]
    async fn tail(&self, ctx: &ToolContext) -> u32 {
        let unfinished = Unfinished(Some(&self.dropped));
        let mut line = 0_u32;
        while line < u32::MAX {
            ctx.text(format!("line {line}")).await;
            ctx.progress(0.5, format!("{line} lines")).await;
            tokio::time::sleep(Duration::from_millis(10)).await;
            line += 1;
        }
        unfinished.finish();
        line
    }
}
