//! The demo tools served over MCP.
//!
//! ```text
//! cargo run -p examples --example mcp_server                        # stdio
//! cargo run -p examples --example mcp_server -- --http 127.0.0.1:8080   # POST http://127.0.0.1:8080/mcp
//! cargo run -p examples --example mcp_server -- --http 127.0.0.1:8080 --stateless  # no sessions
//! # replicas sharing their tasks (`report`) in PostgreSQL:
//! cargo run -p examples --features postgres --example mcp_server -- --http 127.0.0.1:8080 \
//!     --stateless --tasks-postgres postgres://mcp@db:5432/tasks
//! ```

use std::net::SocketAddr;
use std::time::Duration;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use tool_executor::prelude::*;

/// Adds two integers; a sum outside the 64-bit range is an `overflow` failure.
#[tool(read_only, idempotent, open_world = false)]
fn add(
    /// The first addend.
    a: i64,
    /// The second addend.
    b: i64,
) -> Result<i64, MathError> {
    a.checked_add(b).ok_or(MathError::Overflow)
}

/// Returns the text it was given.
#[tool(read_only, idempotent, open_world = false)]
fn echo(
    /// The text to echo back.
    text: &str,
) -> String {
    text.to_owned()
}

/// Why an arithmetic tool failed.
#[derive(Debug, thiserror::Error, ToolFailure)]
enum MathError {
    #[error("overflow: the sum does not fit in a 64-bit signed integer")]
    #[failure(terminal, code = "overflow")]
    Overflow,
    #[error("division by zero: the divisor `b` must not be 0")]
    #[failure(terminal, code = "division_by_zero")]
    DivisionByZero,
}

/// Divides `a` by `b`.
#[tool(read_only, idempotent, open_world = false)]
fn divide(
    /// The dividend.
    a: f64,
    /// The divisor; must not be zero.
    b: f64,
) -> Result<f64, MathError> {
    if b == 0.0 {
        return Err(MathError::DivisionByZero);
    }
    Ok(a / b)
}

/// Waits `seconds`, reporting progress every 100 ms. Cancel it to stop early.
#[tool(read_only, open_world = false)]
async fn slow(
    /// How long to wait, in seconds.
    seconds: u64,
    ctx: &ToolContext,
) -> String {
    let ticks = seconds.saturating_mul(10).max(1);
    for tick in 1..=ticks {
        tokio::time::sleep(Duration::from_millis(100)).await;
        #[allow(clippy::cast_precision_loss)] // tick counts stay far below 2^52
        let fraction = tick as f64 / ticks as f64;
        ctx.progress(fraction, format!("{tick}/{ticks}")).await;
    }
    format!("waited {seconds}s")
}

/// Writes a report on `topic`, one section a second for `seconds` seconds. Runs as a task
/// (MCP tasks extension): the call answers at once with a task id, the client polls it, and
/// the section being written is the task's status message.
#[tool(
    read_only,
    open_world = false,
    task = "required",
    ttl = "10m",
    poll = "1s"
)]
async fn report(
    /// What the report is about.
    topic: String,
    /// How long writing takes, in seconds (at most 600, the task's lifetime).
    seconds: u64,
    ctx: &ToolContext,
) -> String {
    let sections = seconds.clamp(1, 600);
    for section in 1..=sections {
        #[allow(clippy::cast_precision_loss)] // at most 600 sections
        let fraction = (section - 1) as f64 / sections as f64;
        ctx.progress(fraction, format!("writing section {section} of {sections}"))
            .await;
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
    format!("report on {topic}: {sections} sections")
}

/// A temperature unit.
#[derive(Debug, Clone, Copy, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Unit {
    /// Degrees Celsius.
    #[default]
    Celsius,
    /// Degrees Fahrenheit.
    Fahrenheit,
}

/// The weather in a city.
#[derive(Debug, Serialize, JsonSchema)]
struct Weather {
    /// The city asked about.
    city: String,
    /// The temperature, in `unit`.
    temperature: f64,
    /// The unit of `temperature`.
    unit: Unit,
    /// A short description.
    conditions: String,
}

/// Looks up the current weather for a city (canned data).
#[tool(read_only, open_world, title = "Get weather")]
fn get_weather(
    /// City name, e.g. "Paris".
    city: &str,
    /// Temperature unit (default celsius).
    unit: Option<Unit>,
) -> Weather {
    let unit = unit.unwrap_or_default();
    let celsius = 18.5;
    let temperature = match unit {
        Unit::Celsius => celsius,
        Unit::Fahrenheit => celsius * 9.0 / 5.0 + 32.0,
    };
    Weather {
        city: city.to_owned(),
        temperature,
        unit,
        conditions: "partly cloudy".to_owned(),
    }
}

/// Always panics: shows that a panicking tool is an error result, not a dead server.
#[tool]
fn boom() -> String {
    panic!("boom: this tool always panics")
}

fn usage() -> ! {
    eprintln!(
        "usage: mcp_server [--http HOST:PORT [--stateless] [--tasks-postgres URL [--replica-timeout-ms N]]]"
    );
    std::process::exit(2)
}

/// What follows `--http HOST:PORT`.
#[derive(Default)]
struct HttpOptions<'a> {
    stateless: bool,
    postgres: Option<&'a str>,
    replica_timeout: Option<Duration>,
}

fn http_options<'a>(mut rest: &[&'a str]) -> HttpOptions<'a> {
    let mut options = HttpOptions::default();
    loop {
        rest = match rest {
            [] => return options,
            ["--stateless", more @ ..] => {
                options.stateless = true;
                more
            }
            ["--tasks-postgres", url, more @ ..] => {
                options.postgres = Some(url);
                more
            }
            ["--replica-timeout-ms", ms, more @ ..] => {
                let ms = ms.parse().unwrap_or_else(|_| usage());
                options.replica_timeout = Some(Duration::from_millis(ms));
                more
            }
            _ => usage(),
        };
    }
}

/// Keeps the server's tasks in PostgreSQL at `url`, shared by every replica on it.
#[cfg(feature = "postgres")]
async fn tasks_in(
    server: tool_executor::McpServer,
    url: &str,
    replica_timeout: Option<Duration>,
) -> std::io::Result<tool_executor::McpServer> {
    use tool_executor::task::{DEFAULT_REPLICA_TIMEOUT, PostgresTaskStore, Tasks};
    let timeout = replica_timeout.unwrap_or(DEFAULT_REPLICA_TIMEOUT);
    let store = PostgresTaskStore::connect_with(url, timeout)
        .await
        .map_err(std::io::Error::other)?;
    Ok(server.with_tasks(Tasks::new(store)))
}

#[cfg(not(feature = "postgres"))]
#[allow(clippy::unused_async)] // the `postgres` variant's signature, so one call site serves both
async fn tasks_in(
    _: tool_executor::McpServer,
    _: &str,
    _: Option<Duration>,
) -> std::io::Result<tool_executor::McpServer> {
    eprintln!("--tasks-postgres needs the `postgres` feature");
    std::process::exit(2)
}

/// The demo tools, in the order they are listed.
#[must_use]
pub fn tools() -> tool_executor::ToolSet {
    toolset![add, echo, divide, slow, report, get_weather, boom]
}

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let tools = tools();
    // Reports this crate's name and version (`examples` 0.1.0) as `serverInfo`.
    let server = tool_executor::mcp_server!(tools);
    let args: Vec<String> = std::env::args().skip(1).collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    match args.as_slice() {
        [] => server.serve_stdio().await,
        ["--http", addr, rest @ ..] => {
            let options = http_options(rest);
            let server = server.with_stateless_http(options.stateless);
            let server = match options.postgres {
                Some(url) => tasks_in(server, url, options.replica_timeout).await?,
                None => server,
            };
            let addr: SocketAddr = addr.parse().unwrap_or_else(|_| usage());
            let listener = tokio::net::TcpListener::bind(addr).await?;
            // The peer script waits for this line before connecting.
            eprintln!("listening on http://{}/mcp", listener.local_addr()?);
            server
                .serve_http_on(listener, tokio_util::sync::CancellationToken::new())
                .await
        }
        _ => usage(),
    }
}
