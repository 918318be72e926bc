//! What the runtime costs: a call through `Runtime` with nothing to retry against the same
//! call on the bare `ToolSet`, and a detached call (spawn, then wait on its handle) against
//! `tokio::spawn` of the bare call.
//!
//! Run: `cargo bench -p benches --bench runtime` (see BENCHMARKS.md §3 for the exact settings).
//! Times are the benchmark thread's CPU time (see `common`); the spawned calls run on a
//! current-thread runtime, so on that thread too.

use std::hint::black_box;

use benches::{CALLED, arguments, ours, ready};
use common::ThreadCpuTime;
use criterion::{Criterion, criterion_group, criterion_main};
use tool_executor::runtime::Runtime;
use tool_executor::{ToolContext, ToolExecutor};

mod common;

fn call(c: &mut Criterion<ThreadCpuTime>) {
    let args = arguments();
    let set = ours::toolset();
    let runtime = Runtime::new(set.clone());
    let expected = serde_json::json!({"tool": 10, "total": 84, "flagged": true});
    let bare = ready(set.execute_with_context(CALLED, &args, ToolContext::new()));
    assert_eq!(bare.map(|e| e.output), Ok(expected.clone()));
    assert_eq!(
        ready(runtime.call(CALLED, &args)).map(|e| e.output),
        Ok(expected)
    );

    let mut group = c.benchmark_group("runtime_call");
    group.bench_function("toolset_execute_with_context", |b| {
        b.iter(|| {
            ready(black_box(&set).execute_with_context(
                black_box(CALLED),
                black_box(&args),
                ToolContext::new(),
            ))
        });
    });
    group.bench_function("runtime_call", |b| {
        b.iter(|| ready(black_box(&runtime).call(black_box(CALLED), black_box(&args))));
    });
    group.finish();
}

fn detached(c: &mut Criterion<ThreadCpuTime>) {
    let args = arguments();
    let set = ours::toolset();
    let runtime = Runtime::new(set.clone());
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a Tokio runtime");
    let _entered = rt.enter();

    let mut group = c.benchmark_group("runtime_detached");
    group.bench_function("tokio_spawn_bare_call", |b| {
        b.iter(|| {
            let (set, args) = (set.clone(), args.clone());
            let task = tokio::spawn(async move {
                set.execute_with_context(CALLED, &args, ToolContext::new())
                    .await
            });
            rt.block_on(task).expect("the task ran")
        });
    });
    group.bench_function("runtime_spawn_wait", |b| {
        b.iter(|| {
            let handle = runtime.spawn(CALLED, args.clone()).expect("in a runtime");
            rt.block_on(handle.wait())
        });
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = common::config();
    targets = call, detached
}
criterion_main!(benches);
