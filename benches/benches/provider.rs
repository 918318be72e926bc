//! The provider tool-call adapter (issue 11): answering an OpenAI Chat completion's tool call
//! with `Definitions::answer` and its messages, against the same call done by hand (read the
//! call's id, name and arguments string out of the completion, parse the arguments,
//! `execute_with_context` with the call id, serialize the output, build the `role: tool`
//! message); and cached definitions against `specs()`.
//!
//! Run: `cargo bench -p benches --bench provider` (see BENCHMARKS.md §3 for the exact settings).
//! Times are the benchmark thread's CPU time (see `common`).

use std::hint::black_box;

use benches::{ours, provider};
use common::ThreadCpuTime;
use criterion::{Criterion, criterion_group, criterion_main};
use tool_executor::ToolExecutor;
use tool_executor::provider::Provider;

mod common;

fn answer(c: &mut Criterion<ThreadCpuTime>) {
    let set = ours::toolset();
    let defs = provider::definitions(&set);
    let completion = provider::completion();
    assert_eq!(
        provider::messages(&defs, &set, &completion),
        vec![provider::direct(&set, &completion).expect("answered")]
    );

    let mut group = c.benchmark_group("provider_answer");
    group.bench_function("direct_call_and_json", |b| {
        b.iter(|| provider::direct(black_box(&set), black_box(&completion)));
    });
    group.bench_function("answer_openai_chat", |b| {
        b.iter(|| {
            provider::answered(&defs, black_box(&set), black_box(&completion), |m| {
                black_box(m);
            })
        });
    });
    group.finish();
}

fn definitions(c: &mut Criterion<ThreadCpuTime>) {
    let set = ours::toolset();
    let mut group = c.benchmark_group("provider_definitions");
    group.bench_function("specs", |b| b.iter(|| black_box(&set).specs()));
    group.bench_function("definitions_openai_chat_cached", |b| {
        b.iter(|| black_box(&set).definitions(Provider::OpenAiChat));
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = common::config();
    targets = answer, definitions
}
criterion_main!(benches);
