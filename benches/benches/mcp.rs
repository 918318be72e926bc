//! MCP `tools/call` round trips over an in-memory pipe (`tokio::io::duplex`): our `McpServer`
//! serving the `toolset!` against an rmcp `#[tool_handler]` server with a stored router. The
//! same rmcp client drives both, on one current-thread runtime, so each round trip is: the
//! client encodes the request, the server decodes, dispatches, runs the tool and encodes the
//! result, the client decodes it — all on the benchmark thread.
//!
//! Run: `cargo bench -p benches --bench mcp` (needs tool-executor's `mcp` feature).

use std::hint::black_box;

use benches::mcp::{call, connect_ours, connect_rmcp, params};
use common::ThreadCpuTime;
use criterion::{Criterion, criterion_group, criterion_main};
use serde_json::json;

mod common;

fn round_trip(c: &mut Criterion<ThreadCpuTime>) {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a Tokio runtime");
    let params = params();
    let ours = rt.block_on(connect_ours());
    let rmcp = rt.block_on(connect_rmcp());

    // Both servers must give the same answer before they are timed.
    let expected = json!({"tool": 10, "total": 84, "flagged": true});
    assert_eq!(
        rt.block_on(call(&ours, params.clone())),
        Some(expected.clone())
    );
    assert_eq!(rt.block_on(call(&rmcp, params.clone())), Some(expected));

    let mut group = c.benchmark_group("mcp_round_trip");
    group.bench_function("ours_mcp_server", |b| {
        b.iter(|| rt.block_on(call(&ours, black_box(params.clone()))));
    });
    group.bench_function("rmcp_tool_handler", |b| {
        b.iter(|| rt.block_on(call(&rmcp, black_box(params.clone()))));
    });
    group.finish();
    rt.block_on(async {
        let _ = ours.cancel().await;
        let _ = rmcp.cancel().await;
    });
}

criterion_group! {
    name = benches;
    config = common::config();
    targets = round_trip
}
criterion_main!(benches);
