//! The tools shared by the `tool_*.rs` and `tools_impl.rs` tests, written the ways users write
//! them (async without awaits, owned parameters, a `Result` alias, a context or none), with the
//! set that holds them and the helpers that call and drain them.

#![allow(dead_code)]
// each test binary uses a different subset
// The tools under test are written the ways users write them: async without awaits, owned
// parameters.
#![allow(clippy::unused_async, clippy::needless_pass_by_value)]

use std::borrow::Cow;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use tool_executor::prelude::*;
use tool_executor::{ToolSet, ToolStreamChunk};

/// Temperature unit.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Unit {
    /// Degrees Celsius.
    #[default]
    Celsius,
    /// Degrees Fahrenheit.
    Fahrenheit,
}

/// Where to look.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct Location {
    /// City name.
    pub city: String,
    /// Country code.
    pub country: Option<String>,
}

/// A report.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Report {
    /// Where.
    pub place: String,
    /// How warm.
    pub temperature: f64,
    /// In what.
    pub unit: Unit,
}

/// Looks up the weather.
///
/// Second paragraph of the description.
#[tool(read_only, open_world, title = "Weather", timeout = "5s")]
pub async fn weather(
    /// Where to look up.
    location: Location,
    /// Which unit.
    #[arg(default)]
    unit: Unit,
    /// How many days.
    days: u32,
    tags: Vec<String>,
) -> Result<Report, ToolFailure> {
    let _ = (days, tags);
    if location.city == "Atlantis" {
        return Err(ToolFailure::terminal("no such city").with_code("unknown_city"));
    }
    Ok(Report {
        place: format!(
            "{}, {}",
            location.city,
            location.country.as_deref().unwrap_or("??")
        ),
        temperature: 21.5,
        unit,
    })
}

/// Adds two numbers.
///
/// # Arguments
/// * `a` - The first addend.
/// * `b` - The second addend.
#[tool(idempotent)]
pub fn add(a: i64, b: i64) -> i64 {
    a + b
}

/// Joins words.
#[tool(name = "join_words", destructive = false)]
pub fn join(
    /// The words.
    words: &[&str],
    #[arg(default = Cow::Borrowed(" "))] separator: Cow<'_, str>,
    #[arg(rename = "upper", description = "Upper-case it")] shout: Option<bool>,
) -> String {
    let joined = words.join(&separator);
    if shout == Some(true) {
        joined.to_uppercase()
    } else {
        joined
    }
}

/// Says where a string lives, to prove it was not copied.
#[tool]
pub fn address_of(text: &str) -> u64 {
    text.as_ptr() as u64
}

/// Takes nothing.
#[tool]
pub async fn ping() -> &'static str {
    "pong"
}

/// Returns nothing.
#[tool]
pub fn noop(#[arg(default)] _ignored: bool) {}

/// Panics.
#[tool]
pub async fn boom(#[arg(default)] message: Option<String>) -> u8 {
    panic!("{}", message.unwrap_or_else(|| "secret=hunter2".to_owned()))
}

/// Sleeps past its timeout.
#[tool(timeout = "30ms")]
pub async fn sleepy(ctx: &ToolContext) -> u8 {
    let _ = ctx;
    tokio::time::sleep(Duration::from_secs(30)).await;
    1
}

/// Sets a flag when its future is dropped.
struct DropFlag(Arc<AtomicBool>);

impl Drop for DropFlag {
    fn drop(&mut self) {
        self.0.store(true, Ordering::SeqCst);
    }
}

pub static SLOW_DROPPED: std::sync::LazyLock<Arc<AtomicBool>> =
    std::sync::LazyLock::new(|| Arc::new(AtomicBool::new(false)));

/// Reports progress, emits data, then waits forever.
#[tool]
pub async fn slow(ctx: &ToolContext, #[arg(default)] finish: bool) -> Result<String, ToolFailure> {
    let _guard = DropFlag(Arc::clone(&SLOW_DROPPED));
    ctx.progress(0.25, Some("started".to_owned())).await;
    ctx.emit(&json!({"partial": 1})).await?;
    ctx.text("some text").await;
    if finish {
        return Ok("finished".to_owned());
    }
    std::future::pending::<()>().await;
    unreachable!()
}

pub static NAP_DROPPED: std::sync::LazyLock<Arc<AtomicBool>> =
    std::sync::LazyLock::new(|| Arc::new(AtomicBool::new(false)));

/// Waits forever without a context (so a set calls it without one unless the call has a
/// deadline or a token).
#[tool]
pub async fn nap() -> u8 {
    let _guard = DropFlag(Arc::clone(&NAP_DROPPED));
    std::future::pending::<()>().await;
    unreachable!()
}

/// Tells what the context says.
#[tool]
pub fn whoami(ctx: &ToolContext) -> Value {
    json!({
        "action_id": ctx.action_id(),
        "session_id": ctx.session_id(),
        "attempt": ctx.attempt(),
        "has_deadline": ctx.deadline().is_some(),
    })
}

/// Records a state change.
#[tool]
pub fn remember(key: String, value: Value, ctx: &ToolContext) -> bool {
    ctx.record_state_change(key, value);
    true
}

type TextResult<T> = Result<T, String>;

/// Fails with plain text through a `Result` alias.
#[tool]
pub fn refuse(reason: String) -> TextResult<u8> {
    Err(reason)
}

pub fn set() -> ToolSet {
    toolset![
        weather, add, join, address_of, ping, noop, boom, sleepy, slow, whoami, remember, refuse,
        nap
    ]
}

pub fn rt() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap()
}

pub async fn call(tools: &ToolSet, tool: &str, params: Value) -> Result<Value, ToolFailure> {
    tools
        .execute_with_context(tool, &params, ToolContext::new())
        .await
        .map(|e| e.output)
}

pub async fn drain(mut rx: tokio::sync::mpsc::Receiver<ToolStreamChunk>) -> Vec<Value> {
    let mut chunks = Vec::new();
    while let Some(chunk) = tokio::time::timeout(Duration::from_secs(10), rx.recv())
        .await
        .expect("stream stalled")
    {
        chunks.push(serde_json::to_value(&chunk).unwrap());
    }
    chunks
}
