//! What the contract lock costs on a 50-tool set: producing the contract (every tool through
//! every provider's dialect), writing the lock's text, and the whole check a test or CI runs
//! (read the lock, produce the contract, compare), with no change and with one breaking change.
//! Tool search: one query over a 200-tool index.
//!
//! Run: `cargo bench -p benches --bench contract` (see BENCHMARKS.md §3 for the settings).
//! Times are the benchmark thread's CPU time (see `common`).

use std::hint::black_box;
use std::sync::Arc;

use common::ThreadCpuTime;
use criterion::{Criterion, criterion_group, criterion_main};
use serde_json::json;
use tool_executor::ToolSpec;
use tool_executor::contract::Contract;
use tool_executor::search::ToolIndex;

mod common;

/// `count` specs: the bench's 20 tools, renamed `{name}_{round}` for each round over them.
fn specs(count: usize) -> Vec<Arc<ToolSpec>> {
    let set = benches::ours::toolset();
    let base = set.list();
    (0..count)
        .map(|i| {
            let mut spec = (*base[i % base.len()]).clone();
            spec.name = format!("{}_{}", spec.name, i / base.len());
            Arc::new(spec)
        })
        .collect()
}

fn contract(c: &mut Criterion<ThreadCpuTime>) {
    let specs = specs(50);
    let lock = Contract::from_specs(&specs).to_json();
    // The same set with one new required argument on one tool.
    let mut changed = specs.clone();
    let mut spec = (*changed[7]).clone();
    spec.input_schema["properties"]["extra"] = json!({"type": "string"});
    spec.input_schema["required"]
        .as_array_mut()
        .expect("a generated tool lists its required arguments")
        .push(json!("extra"));
    changed[7] = Arc::new(spec);

    let mut group = c.benchmark_group("contract_50_tools");
    group.bench_function("produce", |b| {
        b.iter(|| black_box(Contract::from_specs(black_box(&specs))));
    });
    let produced = Contract::from_specs(&specs);
    group.bench_function("to_json", |b| {
        b.iter(|| black_box(black_box(&produced).to_json()));
    });
    group.bench_function("check_unchanged", |b| {
        b.iter(|| {
            let lock = Contract::from_json(black_box(&lock)).expect("the lock reads back");
            let diff = lock.diff(&Contract::from_specs(black_box(&specs)));
            assert!(diff.is_empty());
        });
    });
    group.bench_function("check_one_breaking", |b| {
        b.iter(|| {
            let lock = Contract::from_json(black_box(&lock)).expect("the lock reads back");
            let diff = lock.diff(&Contract::from_specs(black_box(&changed)));
            assert!(diff.is_breaking());
        });
    });
    group.finish();
}

fn search(c: &mut Criterion<ThreadCpuTime>) {
    let specs = specs(200);
    let mut group = c.benchmark_group("search_200_tools");
    group.bench_function("index", |b| {
        b.iter(|| black_box(ToolIndex::new(black_box(&specs).iter().cloned())));
    });
    let index = ToolIndex::new(specs.iter().cloned());
    group.bench_function("query", |b| {
        b.iter(|| black_box(index.search(black_box("add two numbers together"), 5)));
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = common::config();
    targets = contract, search
}
criterion_main!(benches);
