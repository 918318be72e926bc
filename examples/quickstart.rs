//! The executor tour: plain functions become tools with schemas, typed failures and a
//! `ToolExecutor`, and a `ToolSet` calls them by name.
//!
//! Run with `cargo run --example quickstart`.

use std::borrow::Cow;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use tool_executor::prelude::*;
use tool_executor::{FailureKind, ToolSet, ToolStreamChunk};

/// Temperature unit.
#[derive(Debug, Clone, Copy, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Unit {
    /// Degrees Celsius.
    #[default]
    Celsius,
    /// Degrees Fahrenheit.
    Fahrenheit,
}

/// A weather report.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Weather {
    /// The city the report is for.
    pub city: String,
    /// The temperature in the requested unit.
    pub temperature: f64,
    /// The unit of `temperature`.
    pub unit: Unit,
}

/// Why a weather lookup failed. One derive gives every transport its mapping.
#[derive(Debug, thiserror::Error, ToolFailure)]
pub enum WeatherError {
    /// No such city: retrying will not help.
    #[error("unknown city `{city}`")]
    #[failure(terminal, data)]
    UnknownCity {
        /// The city asked for.
        city: String,
    },
    /// The weather service is down: retry later.
    #[error("weather service unavailable")]
    #[failure(retry_after = "200ms")]
    Unavailable,
}

/// Look up the current weather for a city.
#[tool(read_only, open_world, timeout = "5s", title = "Current weather")]
async fn get_weather(
    /// City name, e.g. "Paris".
    city: &str,
    /// Temperature unit.
    #[arg(default)]
    unit: Unit,
    ctx: &ToolContext,
) -> Result<Weather, WeatherError> {
    ctx.progress(0.5, Some(format!("asking the sky above {city}")))
        .await;
    let celsius = match city {
        "Paris" => 18.5,
        "Oslo" => 4.0,
        "Atlantis" => {
            return Err(WeatherError::UnknownCity {
                city: city.to_owned(),
            });
        }
        _ => return Err(WeatherError::Unavailable),
    };
    let temperature = match unit {
        Unit::Celsius => celsius,
        Unit::Fahrenheit => celsius * 9.0 / 5.0 + 32.0,
    };
    Ok(Weather {
        city: city.to_owned(),
        temperature,
        unit,
    })
}

/// Why a sum failed.
#[derive(Debug, thiserror::Error, ToolFailure)]
pub enum AddError {
    /// The sum does not fit in an `i64`: the same inputs always overflow.
    #[error("overflow: {a} + {b} does not fit in a 64-bit signed integer")]
    #[failure(terminal, code = "overflow")]
    Overflow {
        /// The first addend.
        a: i64,
        /// The second addend.
        b: i64,
    },
}

/// Adds two integers. Sync functions are tools too.
///
/// # Arguments
/// * `a` - The first addend.
/// * `b` - The second addend.
#[tool(idempotent, read_only)]
fn add(a: i64, b: i64) -> Result<i64, AddError> {
    a.checked_add(b).ok_or(AddError::Overflow { a, b })
}

/// Joins words, borrowing them from the request instead of copying.
#[tool(name = "join_words")]
fn join(
    /// The words to join.
    words: &[&str],
    /// What goes between the words.
    #[arg(default = " ")]
    separator: &str,
    /// Shout the result.
    #[arg(rename = "upper", description = "Upper-case the result")]
    shout: Option<bool>,
) -> String {
    let joined = words.join(separator);
    if shout.unwrap_or(false) {
        joined.to_uppercase()
    } else {
        joined
    }
}

/// Trims text: a `Cow` borrows from the request and is owned only when it must change.
#[tool(idempotent)]
fn trim(text: Cow<'_, str>) -> String {
    match text {
        Cow::Borrowed(s) => s.trim().to_owned(),
        Cow::Owned(s) => s.trim().to_owned(),
    }
}

/// A counter service: `#[tools]` makes its methods the tools of one executor.
#[derive(Clone, Default)]
pub struct Counter {
    hits: Arc<AtomicU64>,
}

#[tools]
impl Counter {
    /// Adds to the counter and returns the new total.
    #[tool(destructive = false)]
    async fn bump(&self, #[arg(default = 1)] by: u64, ctx: &ToolContext) -> u64 {
        ctx.progress(1.0, Some("bumped".to_owned())).await;
        ctx.record_state_change("hits", json!(by));
        self.hits.fetch_add(by, Ordering::Relaxed) + by
    }

    /// Reads the counter.
    #[tool(read_only)]
    fn read(&self) -> u64 {
        self.hits.load(Ordering::Relaxed)
    }
}

/// Every tool of the tour in one set: free-fn tools and the `Counter` service. The `a2a_agent`
/// example serves this same set as an agent.
///
/// # Errors
/// If two tools had one name.
pub fn tools() -> Result<ToolSet, tool_executor::tool::DuplicateTool> {
    ToolSet::builder()
        .tool::<get_weather>()
        .tool::<add>()
        .tool::<join>()
        .tool::<trim>()
        .executor(Counter::default())
        .build()
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let tools = tools()?;
    let quick = toolset![add, join];
    assert_eq!(quick.len(), 2);

    println!("== specs");
    for spec in tools.list() {
        println!("{}", serde_json::to_string_pretty(&**spec)?);
    }

    println!("\n== a successful call");
    let weather = tools
        .execute(
            "get_weather",
            &json!({"city": "Paris", "unit": "fahrenheit"}),
        )
        .await?;
    println!("get_weather(Paris) = {weather}");
    assert_eq!(weather["temperature"], json!(65.3));
    let joined = tools
        .execute(
            "join_words",
            &json!({"words": ["tools", "are", "functions"], "upper": true}),
        )
        .await?;
    println!("join_words = {joined}");
    let trimmed = tools
        .execute("trim", &json!({"text": "  spaced out  "}))
        .await?;
    println!("trim = {trimmed}");
    let total = tools.execute("bump", &json!({"by": 2})).await?;
    println!("bump(2) = {total}");

    println!("\n== an invalid-arguments failure");
    let failure = tools
        .execute_with_context("add", &json!({"a": 1, "b": "two"}), ToolContext::new())
        .await
        .expect_err("b is not an integer");
    println!(
        "add(1, \"two\") failed ({:?}, code {}): {failure}",
        failure.kind(),
        failure.code()
    );
    assert_eq!(failure.kind(), FailureKind::InvalidArguments);
    let failure = tools
        .execute_with_context("add", &json!({"a": i64::MAX, "b": 1}), ToolContext::new())
        .await
        .expect_err("the sum overflows");
    println!(
        "add(i64::MAX, 1) failed (terminal: {}, code {}): {failure}",
        failure.is_terminal(),
        failure.code()
    );
    assert_eq!(failure.code(), "overflow");

    println!("\n== a typed failure");
    let failure = tools
        .execute_with_context(
            "get_weather",
            &json!({"city": "Atlantis"}),
            ToolContext::new(),
        )
        .await
        .expect_err("Atlantis is not a city");
    println!(
        "get_weather(Atlantis) failed (terminal: {}, code {}, data {}): {failure}",
        failure.is_terminal(),
        failure.code(),
        failure.data().map_or_else(String::new, ToString::to_string),
    );
    assert!(failure.is_terminal());
    assert_eq!(failure.code(), "unknown_city");
    assert_eq!(
        get_weather::spec().failure_codes,
        ["unknown_city", "unavailable"]
    );

    println!("\n== a streamed call");
    let mut stream = tools
        .execute_stream("get_weather", &json!({"city": "Oslo"}), "action-1")
        .await?;
    while let Some(chunk) = stream.recv().await {
        println!("{}", serde_json::to_string(&chunk)?);
        if chunk.is_terminal() {
            assert!(matches!(chunk, ToolStreamChunk::Done { .. }));
            break;
        }
    }
    Ok(())
}
