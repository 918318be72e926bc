//! MCP `tools/call` round trips over an in-memory pipe (`tokio::io::duplex`): our `McpServer`
//! serving the `toolset!` against an rmcp `#[tool_handler]` server with a stored router. The
//! same rmcp client drives both, on one current-thread runtime, so each round trip is: the
//! client encodes the request, the server decodes, dispatches, runs the tool and encodes the
//! result, the client decodes it — all on the benchmark thread.
//!
//! Run: `cargo bench -p benches --bench mcp` (needs executor-core's `mcp` feature).

use std::hint::black_box;

use benches::{CALLED, arguments, ours, peer};
use common::ThreadCpuTime;
use criterion::{Criterion, criterion_group, criterion_main};
use executor_core::mcp::McpServer;
use rmcp::ServiceExt;
use rmcp::model::CallToolRequestParams;
use rmcp::service::{RoleClient, RunningService};
use serde_json::{Value, json};

mod common;

type Client = RunningService<RoleClient, ()>;

/// A client connected, handshake done, to a server running on the other end of a pipe.
async fn connect_ours() -> Client {
    let (client_io, server_io) = tokio::io::duplex(1 << 16);
    let (read, write) = tokio::io::split(server_io);
    tokio::spawn(McpServer::new(ours::toolset()).serve_io(read, write));
    ().serve(client_io)
        .await
        .expect("our server completes the handshake")
}

async fn connect_rmcp() -> Client {
    let (client_io, server_io) = tokio::io::duplex(1 << 16);
    tokio::spawn(async move {
        let running = peer::Server::default()
            .serve(server_io)
            .await
            .expect("the rmcp server completes the handshake");
        let _ = running.waiting().await;
    });
    ().serve(client_io)
        .await
        .expect("the rmcp server answers the handshake")
}

async fn call(client: &Client, params: CallToolRequestParams) -> Option<Value> {
    let result = client
        .call_tool(params)
        .await
        .expect("the call is answered");
    assert_ne!(result.is_error, Some(true), "the tool failed: {result:?}");
    result.structured_content
}

fn round_trip(c: &mut Criterion<ThreadCpuTime>) {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a Tokio runtime");
    let Value::Object(map) = arguments() else {
        unreachable!("arguments() is an object")
    };
    let params = CallToolRequestParams::new(CALLED).with_arguments(map);
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
