//! Tools for the tests that serve a tool over A2A or MCP and call it through a `Runtime`:
//! each records the attempt number and idempotency key its context carried, under the `run`
//! argument, so tests running at once keep their records apart.

#![allow(dead_code)] // each test file uses its own part of the helper

use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use tool_executor::prelude::*;
use tool_executor::runtime::RetryPolicy;
use tool_executor::{ToolContext, ToolExecutor, ToolSet, ToolSpec};

/// What one call of a tool saw: its attempt number and idempotency key.
pub type Seen = (u32, Option<String>);

static SEEN: Mutex<Option<HashMap<String, Vec<Seen>>>> = Mutex::new(None);

fn record(run: &str, ctx: &ToolContext) -> usize {
    let mut seen = SEEN.lock().unwrap_or_else(PoisonError::into_inner);
    let calls = seen
        .get_or_insert_with(HashMap::new)
        .entry(run.to_owned())
        .or_default();
    calls.push((ctx.attempt(), ctx.idempotency_key().map(str::to_owned)));
    calls.len()
}

/// Every call recorded under `run`, in order.
pub fn seen(run: &str) -> Vec<Seen> {
    SEEN.lock()
        .unwrap_or_else(PoisonError::into_inner)
        .as_ref()
        .and_then(|s| s.get(run).cloned())
        .unwrap_or_default()
}

/// How a booking fails.
#[derive(Debug, thiserror::Error, ToolFailure)]
pub enum BookError {
    /// Ordinary: the failure table retries it.
    #[error("the booking service is busy")]
    Busy,
    #[error("the flight is sold out")]
    #[failure(terminal)]
    SoldOut,
}

/// Books a seat: repeating it books another. Always busy here.
#[tool(idempotent = false, read_only = false, timeout = "5s")]
pub async fn book(run: String, ctx: &ToolContext) -> Result<String, BookError> {
    tokio::task::yield_now().await;
    record(&run, ctx);
    Err(BookError::Busy)
}

/// Looks a seat up, declaring nothing about itself. Always busy here.
#[tool]
pub async fn look(run: String, ctx: &ToolContext) -> Result<String, BookError> {
    tokio::task::yield_now().await;
    record(&run, ctx);
    Err(BookError::Busy)
}

/// Counts free seats: safe to repeat. Busy for the first `busy` calls of a run.
#[tool(
    read_only,
    idempotent,
    destructive = false,
    open_world = false,
    timeout = "2s"
)]
pub async fn seats(run: String, busy: u32, ctx: &ToolContext) -> Result<u32, BookError> {
    tokio::task::yield_now().await;
    let calls = record(&run, ctx);
    if calls <= usize::try_from(busy).unwrap_or(usize::MAX) {
        return Err(BookError::Busy);
    }
    Ok(7)
}

pub fn tools() -> ToolSet {
    toolset![book, look, seats]
}

/// Three quick attempts.
pub fn quick() -> RetryPolicy {
    RetryPolicy::exponential(Duration::from_millis(1)).max_attempts(3)
}

/// `remote`'s spec of `name`.
pub fn spec(remote: &dyn ToolExecutor, name: &str) -> ToolSpec {
    let specs = remote.specs();
    let spec = specs.iter().find(|s| s.name == name);
    (**spec.unwrap_or_else(|| panic!("`{name}` is listed"))).clone()
}

/// Every hint, failure code and timeout of [`tools`] survived the hop to `remote`, the
/// negative hints of `book` included.
pub fn assert_specs_survive(remote: &dyn ToolExecutor) {
    let local = tools();
    for name in ["book", "look", "seats"] {
        let (want, got) = (spec(&local, name), spec(remote, name));
        assert_eq!(got.annotations, want.annotations, "{name}'s hints");
        assert_eq!(
            got.failure_codes, want.failure_codes,
            "{name}'s failure codes"
        );
        assert_eq!(got.timeout, want.timeout, "{name}'s timeout");
    }
    let book = spec(remote, "book");
    assert_eq!(book.annotations.idempotent, Some(false));
    assert_eq!(book.failure_codes, ["busy", "sold_out"]);
    assert_eq!(book.timeout, Some(Duration::from_secs(5)));
}
