//! Tools shared by the MCP tests.
#![allow(dead_code)] // each test binary uses a different subset

use std::collections::HashSet;
use std::sync::Mutex;

use schemars::JsonSchema;
use serde::Serialize;
use tool_executor::prelude::*;
use tool_executor::{ToolFailure, ToolSet};

static DROPPED: Mutex<Option<HashSet<String>>> = Mutex::new(None);

/// Whether the `wait` call with `key` had its future dropped.
pub fn dropped(key: &str) -> bool {
    DROPPED
        .lock()
        .unwrap()
        .as_ref()
        .is_some_and(|s| s.contains(key))
}

/// Records its key (see [`dropped`]) when the future holding it is dropped.
pub struct OnDrop(pub String);

impl Drop for OnDrop {
    fn drop(&mut self) {
        DROPPED
            .lock()
            .unwrap()
            .get_or_insert_with(HashSet::new)
            .insert(self.0.clone());
    }
}

/// Adds two integers.
#[tool(read_only, idempotent)]
pub fn add(a: i64, b: i64) -> i64 {
    a + b
}

/// Echoes.
#[tool]
pub fn echo(text: &str) -> String {
    text.to_owned()
}

/// A forecast.
#[derive(Serialize, JsonSchema)]
pub struct Forecast {
    city: String,
    high: i32,
}

/// A canned forecast.
#[tool(open_world, title = "Forecast")]
pub fn forecast(city: &str) -> Forecast {
    Forecast {
        city: city.to_owned(),
        high: 21,
    }
}

/// Always refuses, terminally.
#[tool]
pub fn refuse() -> Result<String, ToolFailure> {
    Err(ToolFailure::terminal("not today").with_code("refused"))
}

/// Fails with a secret in the error, which must stay redacted.
#[tool]
pub fn leak() -> Result<String, ToolFailure> {
    Err(ToolFailure::internal("password=hunter2"))
}

/// Always panics.
#[tool]
pub fn boom() -> String {
    panic!("kaboom")
}

/// Waits until cancelled; records that its future was dropped.
#[tool]
pub async fn wait(key: &str) -> String {
    let _guard = OnDrop(key.to_owned());
    std::future::pending::<()>().await;
    unreachable!()
}

/// Counts to `to`, reporting progress at each step.
#[tool]
pub async fn count(to: u32, ctx: &ToolContext) -> u32 {
    for i in 1..=to {
        ctx.progress(f64::from(i) / f64::from(to), format!("{i} of {to}"))
            .await;
        tokio::task::yield_now().await;
    }
    to
}

/// The session the call belongs to.
#[tool]
pub fn session(ctx: &ToolContext) -> String {
    ctx.session_id().unwrap_or("none").to_owned()
}

pub fn tools() -> ToolSet {
    toolset![
        add, echo, forecast, refuse, leak, boom, wait, count, session
    ]
}
