//! Our tools hosted for a car daemon over its WebSocket protocol (feature `car-ws`): no
//! car-engine, no car-ir. The host authenticates, shakes hands, registers the tools and
//! serves car's `tools.execute` calls until stopped, reconnecting when the daemon restarts.
//!
//! Against a running car daemon (`car daemon start`; its token is in the per-launch file the
//! daemon names):
//!
//! ```text
//! cargo run --example car_host -- --token "$(cat "$XDG_RUNTIME_DIR/ai.parslee.car/auth-token")"
//! ```
//!
//! Against the test peer (what CI runs): `cargo run --example car_peer -- --token t` prints a
//! URL; `cargo run --example car_host -- --url URL --token t --once` serves one session and
//! exits when the peer closes it.

// Tools are written as users write them: async, whether or not they await.
#![allow(clippy::unused_async)]

use std::time::Duration;

use schemars::JsonSchema;
use serde::Serialize;
use tool_executor::car::CarHost;
use tool_executor::prelude::*;

/// Why a weather lookup failed.
#[derive(Debug, thiserror::Error, ToolFailure)]
pub enum WeatherError {
    /// No such city: car stops the proposal (terminal).
    #[error("unknown city `{city}`")]
    #[failure(terminal, data)]
    UnknownCity {
        /// The city asked for.
        city: String,
    },
    /// The service is down: car retries (ordinary).
    #[error("weather service unavailable")]
    #[failure(retry_after = "200ms")]
    Unavailable,
}

/// A weather report.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Weather {
    /// The city.
    pub city: String,
    /// Degrees Celsius.
    pub celsius: f64,
}

/// Adds two numbers.
#[tool(read_only)]
async fn add(a: i64, b: i64) -> i64 {
    a + b
}

/// Looks up the weather. Oslo's service answers only on a retry (car's attempt 2).
#[tool(read_only, open_world)]
async fn get_weather(
    /// City name, e.g. "Paris".
    city: String,
    ctx: &ToolContext,
) -> Result<Weather, WeatherError> {
    let celsius = match (city.as_str(), ctx.attempt()) {
        ("Paris", _) => 18.5,
        ("Oslo", attempt) if attempt >= 2 => 4.0,
        ("Atlantis", _) => return Err(WeatherError::UnknownCity { city }),
        _ => return Err(WeatherError::Unavailable),
    };
    Ok(Weather { city, celsius })
}

/// Sleeps `ms` milliseconds (car's action timeout cancels it).
#[tool]
async fn nap(ms: u64) -> u64 {
    tokio::time::sleep(Duration::from_millis(ms)).await;
    ms
}

/// Files a report: car sees the state change `report.<id>`.
#[tool]
async fn file_report(id: String, ctx: &ToolContext) -> String {
    ctx.record_state_change(format!("report.{id}"), serde_json::json!({"filed": true}));
    format!("report {id} filed")
}

#[tokio::main]
async fn main() -> std::process::ExitCode {
    let mut url = tool_executor::car::host::DEFAULT_URL.to_owned();
    let mut token = String::new();
    let mut once = false;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--url" => url = args.next().unwrap_or_default(),
            "--token" => token = args.next().unwrap_or_default(),
            "--once" => once = true,
            other => {
                eprintln!("usage: car_host [--url ws://…] [--token T] [--once] (not {other})");
                return std::process::ExitCode::from(2);
            }
        }
    }
    let host = CarHost::new(toolset![add, get_weather, nap, file_report])
        .url(url.clone())
        .token(token);
    if !once {
        // Serves, reconnecting with backoff, until a refusal stops it.
        eprintln!("car host stopped: {}", host.run().await);
        return std::process::ExitCode::FAILURE;
    }
    let session = match host.connect().await {
        Ok(session) => session,
        Err(error) => {
            eprintln!("car host: {error}");
            return std::process::ExitCode::FAILURE;
        }
    };
    println!(
        "registered {} tools with {url} (capabilities: {:?})",
        session.tools().len(),
        session.negotiated_capabilities()
    );
    match session.closed().await {
        Ok(()) => {
            println!("the daemon closed the session");
            std::process::ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("car host: {error}");
            std::process::ExitCode::FAILURE
        }
    }
}
