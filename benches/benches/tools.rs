//! In-process costs: one tool call (`call/*`) and listing the 20 specs (`list/*`), ours against
//! the hand-written baseline and rmcp, measured in the same run.
//!
//! Run: `cargo bench -p benches --bench tools` (see BENCHMARKS.md §3 for the exact settings).
//! Times are the benchmark thread's CPU time (see `common`).

use std::collections::HashMap;
use std::hint::black_box;

use benches::{CALLED, arguments, hand, ours, peer, ready};
use common::ThreadCpuTime;
use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use rmcp::handler::server::tool::ToolCallContext;
use rmcp::model::{CallToolRequestParams, CallToolResponse, NumberOrString};
use rmcp::service::{RequestContext, serve_directly};
use serde_json::Value;
use tool_executor::ToolExecutor;

mod common;

fn call(c: &mut Criterion<ThreadCpuTime>) {
    let args = arguments();
    let effects = HashMap::new();
    let set = ours::toolset();
    let borrowed = ours::borrowed::toolset();

    // Every style must produce the same answer before it is timed.
    let expected = serde_json::json!({"tool": 10, "total": 84, "flagged": true});
    let classified = |set: &tool_executor::ToolSet| {
        ready(set.execute_classified(CALLED, &args, "", None, None, 1, &effects, None))
    };
    assert_eq!(classified(&set).map(|e| e.output), Ok(expected.clone()));
    assert_eq!(
        classified(&borrowed).map(|e| e.output),
        Ok(expected.clone())
    );
    assert_eq!(ready(hand::call(CALLED, &args)), Ok(expected.clone()));

    // rmcp needs a peer in every request context; a server served over an unused in-memory
    // pipe (no handshake) provides one. The router the calls go through is the stored one.
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a Tokio runtime");
    let (server_io, _client_io) = tokio::io::duplex(4096);
    let running = rt.block_on(async { serve_directly(peer::Server::default(), server_io, None) });
    let peer_handle = running.peer().clone();
    let server = peer::Server::default();
    let Value::Object(map) = arguments() else {
        unreachable!("arguments() is an object")
    };
    let rmcp_call = |map, ctx| {
        let params = CallToolRequestParams::new(CALLED).with_arguments(map);
        ready(
            server
                .tool_router
                .call(ToolCallContext::new(&server, params, ctx)),
        )
    };
    let context = || RequestContext::new(NumberOrString::Number(1), peer_handle.clone());
    let answer = rmcp_call(map.clone(), context()).expect("rmcp answers");
    let CallToolResponse::Complete(answer) = answer else {
        panic!("rmcp answered {answer:?}, not a final result")
    };
    assert_eq!(answer.structured_content, Some(expected));

    let mut group = c.benchmark_group("call");
    group.bench_function("ours_execute_classified", |b| {
        b.iter(|| {
            ready(set.execute_classified(
                black_box(CALLED),
                black_box(&args),
                "",
                None,
                None,
                1,
                &effects,
                None,
            ))
        });
    });
    group.bench_function("ours_borrowed_str", |b| {
        b.iter(|| {
            ready(borrowed.execute_classified(
                black_box(CALLED),
                black_box(&args),
                "",
                None,
                None,
                1,
                &effects,
                None,
            ))
        });
    });
    group.bench_function("hand_written_match", |b| {
        b.iter(|| ready(hand::call(black_box(CALLED), black_box(&args))));
    });
    // rmcp takes the arguments and the request context by value; both are made outside the
    // timed routine, which favours rmcp.
    group.bench_function("rmcp_tool_router", |b| {
        b.iter_batched(
            || (map.clone(), context()),
            |(map, ctx)| rmcp_call(map, ctx),
            BatchSize::SmallInput,
        );
    });
    group.finish();
    drop(running);
}

fn list(c: &mut Criterion<ThreadCpuTime>) {
    let set = ours::toolset();
    let server = peer::Server::default();
    assert_eq!(set.specs().len(), 20);
    assert_eq!(hand::specs().len(), 20);
    assert_eq!(hand::specs_vec().len(), 20);
    assert_eq!(server.tool_router.list_all().len(), 20);
    let dyn_set: &dyn ToolExecutor = &set;

    let mut group = c.benchmark_group("list");
    group.bench_function("ours_specs", |b| b.iter(|| black_box(&set).specs()));
    group.bench_function("ours_specs_dyn", |b| b.iter(|| black_box(dyn_set).specs()));
    group.bench_function("ours_toolset_list", |b| {
        b.iter(|| black_box(&set).list().len());
    });
    group.bench_function("hand_written_oncelock_shared", |b| {
        b.iter(hand::specs);
    });
    group.bench_function("hand_written_oncelock_vec", |b| {
        b.iter(hand::specs_vec);
    });
    group.bench_function("rmcp_list_all", |b| {
        b.iter(|| black_box(&server.tool_router).list_all());
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = common::config();
    targets = call, list
}
criterion_main!(benches);
