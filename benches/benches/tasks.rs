//! MCP tasks against a plain call (BENCHMARKS.md §17): the same `add` over an in-memory pipe,
//! raw JSON-RPC lines, on one current-thread runtime (client, server and the task's call all on
//! the benchmark thread): `plain` is one `tools/call`; `task` is the call made a task and its
//! first `tasks/get`, with the in-memory store; with feature `postgres` and a database URL in
//! `EXECUTOR_BENCH_POSTGRES`, `task_and_first_get_postgres` with a PostgreSQL store too (its
//! database's CPU time is not the benchmark thread's, so that row is wall clock in spirit:
//! read it as "how long", not "how much CPU").
//!
//! Run: `cargo bench -p benches --bench tasks` (`--features postgres` with the URL set).

use benches::tasks::Wire;
use common::ThreadCpuTime;
use criterion::{Criterion, criterion_group, criterion_main};
use serde_json::json;

mod common;

fn tasks(c: &mut Criterion<ThreadCpuTime>) {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a Tokio runtime");
    let mut wire = rt.block_on(async { Wire::start() });
    let plain = rt.block_on(wire.plain_call());
    assert_eq!(plain["result"]["structuredContent"], json!({"result": 42}));
    let (_, first) = rt.block_on(wire.task_and_first_get());
    assert!(first["result"]["status"].is_string(), "{first}");

    let mut group = c.benchmark_group("mcp_task");
    group.bench_function("plain_call", |b| b.iter(|| rt.block_on(wire.plain_call())));
    group.bench_function("task_and_first_get", |b| {
        b.iter(|| rt.block_on(wire.task_and_first_get()));
    });
    #[cfg(feature = "postgres")]
    if let Ok(url) = std::env::var("EXECUTOR_BENCH_POSTGRES") {
        let mut pg = rt.block_on(Wire::with_postgres(&url));
        group.bench_function("task_and_first_get_postgres", |b| {
            b.iter(|| rt.block_on(pg.task_and_first_get()));
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = common::config();
    targets = tasks
}
criterion_main!(benches);
