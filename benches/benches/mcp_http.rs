//! Sequential MCP `tools/call` round trips over streamable HTTP on 127.0.0.1, one keep-alive
//! client at a time: what a client waits for per call. Guards against the 44 ms stall of issue
//! 13 (rmcp answers a POST in two writes; without `TCP_NODELAY` on the accepted socket the
//! second waits for the client's delayed ACK), so it measures **wall time**, not CPU time: a
//! stalled call burns no CPU. criterion reports calls/s as `elem/s`.
//!
//! - `ours_server`: rmcp's client on a keep-alive `reqwest` pool against our `McpServer`;
//! - `rmcp_server`: the same client against rmcp's `#[tool_handler]` server (with
//!   `TCP_NODELAY`), the peer;
//! - `ours_executor`: our `McpToolExecutor` (its own HTTP client) against our `McpServer`.
//!
//! Run: `CARGO_PROFILE_RELEASE_CODEGEN_UNITS=1 cargo bench -p benches --bench mcp_http`.

use std::hint::black_box;
use std::time::Duration;

use benches::http::{connect, connect_executor, serve_ours, serve_rmcp};
use benches::mcp::{call, params};
use benches::{CALLED, arguments};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use serde_json::json;
use tokio_util::sync::CancellationToken;
use tool_executor::{ToolContext, ToolExecutor};

fn round_trip(c: &mut Criterion) {
    // The servers run on the runtime's two workers; the client runs on the benchmark thread
    // (`block_on`), as a separate process's client would.
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a Tokio runtime");
    let stop = CancellationToken::new();
    let (ours_url, rmcp_url) = rt.block_on(async {
        (
            serve_ours(stop.clone()).await,
            serve_rmcp(stop.clone()).await,
        )
    });
    let ours = rt.block_on(connect(&ours_url));
    let rmcp = rt.block_on(connect(&rmcp_url));
    let executor = rt.block_on(connect_executor(&ours_url));
    let params = params();
    let arguments = arguments();

    // Every path must give the same answer before it is timed.
    let expected = json!({"tool": 10, "total": 84, "flagged": true});
    assert_eq!(
        rt.block_on(call(&ours, params.clone())),
        Some(expected.clone())
    );
    assert_eq!(
        rt.block_on(call(&rmcp, params.clone())),
        Some(expected.clone())
    );
    let out =
        rt.block_on(executor.execute_with_context(CALLED, &arguments, ToolContext::default()));
    assert_eq!(out.map(|e| e.output).ok(), Some(expected));

    let mut group = c.benchmark_group("mcp_http");
    group.throughput(Throughput::Elements(1));
    group.bench_function("ours_server", |b| {
        b.iter(|| rt.block_on(call(&ours, black_box(params.clone()))));
    });
    group.bench_function("rmcp_server", |b| {
        b.iter(|| rt.block_on(call(&rmcp, black_box(params.clone()))));
    });
    group.bench_function("ours_executor", |b| {
        b.iter(|| {
            rt.block_on(executor.execute_with_context(
                CALLED,
                black_box(&arguments),
                ToolContext::default(),
            ))
        });
    });
    group.finish();
    rt.block_on(async {
        let _ = ours.cancel().await;
        let _ = rmcp.cancel().await;
    });
    drop(executor);
    stop.cancel();
}

criterion_group! {
    name = benches;
    // A stalled call takes 44 ms: few samples, so a run before the fix still ends in seconds.
    config = Criterion::default()
        .sample_size(20)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(5));
    targets = round_trip
}
criterion_main!(benches);
