//! The runtime tour: a flaky tool retried after its own hint, a terminal failure not retried,
//! a detached slow call watched and then cancelled, and a fallback chain.
//!
//! Run with `cargo run --example runtime`.

use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

use tool_executor::prelude::*;
use tool_executor::runtime::{FallbackChain, HandleStatus, RetryPolicy, Runtime};
use tool_executor::{FailureKind, ToolStreamChunk};

static QUOTE_CALLS: AtomicU32 = AtomicU32::new(0);

/// Why a quote could not be had.
#[derive(Debug, thiserror::Error, ToolFailure)]
pub enum QuoteError {
    /// The exchange is rate limiting us: try again after the hint.
    #[error("rate limited by the exchange")]
    #[failure(retry_after = "300ms", code = "rate_limited")]
    RateLimited,
    /// No such symbol: asking again will not help.
    #[error("unknown symbol `{0}`")]
    #[failure(terminal, code = "unknown_symbol")]
    UnknownSymbol(String),
}

/// The latest price of a stock symbol; rate limited on the first two calls.
#[tool(read_only, idempotent)]
fn quote(symbol: &str, ctx: &ToolContext) -> Result<f64, QuoteError> {
    println!("  quote({symbol}): attempt {}", ctx.attempt());
    if symbol != "ACME" {
        return Err(QuoteError::UnknownSymbol(symbol.to_owned()));
    }
    if QUOTE_CALLS.fetch_add(1, Ordering::SeqCst) < 2 {
        return Err(QuoteError::RateLimited);
    }
    Ok(101.5)
}

/// Builds a long report, reporting progress every 100 ms.
#[tool(read_only)]
async fn report(pages: u32, ctx: &ToolContext) -> String {
    for page in 1..=pages {
        tokio::time::sleep(Duration::from_millis(100)).await;
        let message = format!("page {page} of {pages}");
        ctx.progress(f64::from(page) / f64::from(pages), Some(message))
            .await;
    }
    format!("{pages} pages")
}

/// Translates a word to French (served by the second executor of the chain).
#[tool(read_only, idempotent)]
fn translate(word: &str) -> Result<String, ToolFailure> {
    match word {
        "cat" => Ok("chat".to_owned()),
        other => Err(ToolFailure::terminal(format!(
            "no translation for `{other}`"
        ))),
    }
}

async fn retries(runtime: &Runtime) -> Result<(), ToolFailure> {
    println!("a flaky tool, retried after its hint:");
    let started = Instant::now();
    let done = runtime.call("quote", &json!({"symbol": "ACME"})).await?;
    let waited = started.elapsed();
    println!("  -> {} after {waited:.1?}", done.output);
    assert_eq!(done.output, json!(101.5));
    // Two retries, each at least the 300 ms hint after the attempt before it.
    assert!(waited >= Duration::from_millis(600));

    println!("a terminal failure, not retried:");
    let failure = runtime
        .call("quote", &json!({"symbol": "NOPE"}))
        .await
        .unwrap_err();
    println!("  -> {failure} (code `{}`)", failure.code());
    assert_eq!(failure.code(), "unknown_symbol");
    Ok(())
}

async fn detached(runtime: &Runtime) -> Result<(), ToolFailure> {
    println!("a detached slow call, watched then cancelled:");
    let handle = runtime.spawn("report", json!({"pages": 50}))?;
    println!("  handle {} is {:?}", handle.id(), handle.status());
    let mut chunks = handle.subscribe();
    while let Some(chunk) = chunks.next().await {
        match chunk {
            ToolStreamChunk::Progress { fraction, message } => {
                println!("  progress {fraction:.2}: {}", message.unwrap_or_default());
                if fraction >= 0.06 {
                    handle.cancel();
                }
            }
            ToolStreamChunk::Error { message, .. } => println!("  ended: {message}"),
            other => println!("  {other:?}"),
        }
    }
    let failure = handle.wait().await.unwrap_err();
    assert_eq!(failure.kind(), FailureKind::Cancelled);
    assert_eq!(handle.status(), HandleStatus::Cancelled);
    println!("  handle is {:?}", handle.status());
    Ok(())
}

async fn fallback() -> Result<(), ToolFailure> {
    println!("a fallback chain:");
    let primary: Arc<dyn ToolExecutor> = Arc::new(toolset![quote]);
    let secondary: Arc<dyn ToolExecutor> = Arc::new(toolset![translate]);
    let chain = FallbackChain::new([primary, secondary])
        .map_err(|e| ToolFailure::internal(e.to_string()))?;
    let names: Vec<_> = chain.specs().iter().map(|s| s.name.clone()).collect();
    println!("  serves {names:?}");
    let runtime = Runtime::new(chain);
    let done = runtime.call("translate", &json!({"word": "cat"})).await?;
    println!("  translate(cat) -> {}", done.output);
    assert_eq!(done.output, json!("chat"));
    // The second executor's typed failure comes back as it was: terminal, not retried.
    let failure = runtime
        .call("translate", &json!({"word": "dog"}))
        .await
        .unwrap_err();
    println!("  translate(dog) -> {failure}");
    assert!(failure.is_terminal());
    let unknown = runtime.call("weather", &json!({})).await.unwrap_err();
    println!("  weather -> {unknown}");
    assert_eq!(unknown.kind(), FailureKind::UnknownTool);
    Ok(())
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), ToolFailure> {
    let runtime = Runtime::new(toolset![quote, report])
        .with_retry(RetryPolicy::exponential(Duration::from_millis(50)).max_attempts(4))
        .with_attempt_timeout(Duration::from_secs(10));
    retries(&runtime).await?;
    detached(&runtime).await?;
    fallback().await
}
