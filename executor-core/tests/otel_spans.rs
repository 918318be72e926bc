//! Spans by the OpenTelemetry MCP conventions, in the caller's trace (feature `otel`): an MCP
//! request's `_meta.traceparent` parents the server's `tools/call {tool}` span, and an
//! `A2aToolExecutor` hop inside it sends that span on as the parent of the agent's
//! `execute_tool {tool}` span, so one trace id runs from the caller to the tool behind the hop.
#![cfg(all(feature = "otel", feature = "mcp", feature = "a2a-client"))]

mod stdio_support;

use std::sync::OnceLock;

use opentelemetry::trace::{SpanKind, TracerProvider as _};
use opentelemetry_sdk::trace::{InMemorySpanExporter, SdkTracerProvider, SpanData};
use serde_json::{Value, json};
use stdio_support::StdioClient;
use tool_executor::agent::{A2aToolExecutor, AgentServer, ToolAgent};
use tool_executor::mcp::McpServer;
use tool_executor::prelude::*;
use tool_executor::tool::TraceContext;
use tracing_subscriber::layer::SubscriberExt as _;

const TRACE_ID: &str = "4bf92f3577b34da6a3ce929d0e0e4736";
const CALLER_SPAN: &str = "00f067aa0ba902b7";

/// The trace this call belongs to, as its context has it.
#[tool]
fn trace_seen(ctx: &ToolContext) -> Value {
    ctx.extension::<TraceContext>().map_or(
        Value::Null,
        |trace| json!({"trace_id": trace.trace_id(), "parent_id": trace.parent_id()}),
    )
}

/// A failing tool, for the error attributes.
#[tool]
fn refuse() -> Result<(), ToolFailure> {
    Err(ToolFailure::ordinary("no").with_code("refused"))
}

/// The OpenTelemetry pipeline an application installs: the `tracing` layer over an SDK
/// tracer, exporting to memory. One per test binary (the subscriber is global).
fn exported() -> (&'static InMemorySpanExporter, &'static SdkTracerProvider) {
    static PIPELINE: OnceLock<(InMemorySpanExporter, SdkTracerProvider)> = OnceLock::new();
    let (exporter, provider) = PIPELINE.get_or_init(|| {
        let exporter = InMemorySpanExporter::default();
        let provider = SdkTracerProvider::builder()
            .with_simple_exporter(exporter.clone())
            .build();
        let layer = tracing_opentelemetry::layer().with_tracer(provider.tracer("otel_spans"));
        let subscriber = tracing_subscriber::registry().with(layer);
        tracing::subscriber::set_global_default(subscriber).expect("one global subscriber");
        (exporter, provider)
    });
    (exporter, provider)
}

/// The finished spans of trace `trace_id` named `name`.
fn spans(trace_id: &str, name: &str) -> Vec<SpanData> {
    let (exporter, provider) = exported();
    provider.force_flush().expect("flush");
    exporter
        .get_finished_spans()
        .expect("spans")
        .into_iter()
        .filter(|s| s.span_context.trace_id().to_string() == trace_id && s.name == name)
        .collect()
}

fn attribute(span: &SpanData, key: &str) -> Option<String> {
    span.attributes
        .iter()
        .find(|kv| kv.key.as_str() == key)
        .map(|kv| kv.value.to_string())
}

#[tokio::test]
async fn the_callers_trace_parents_the_mcp_span_and_crosses_the_a2a_hop() {
    exported();
    let agent = AgentServer::bind("127.0.0.1:0", ToolAgent::new(toolset![trace_seen]))
        .await
        .expect("bind")
        .spawn();
    let remote = A2aToolExecutor::connect(agent.url())
        .await
        .expect("connect");
    let mut client = StdioClient::start(McpServer::new(remote), "otel-test").await;
    let meta = json!({"traceparent": format!("00-{TRACE_ID}-{CALLER_SPAN}-01")});
    let result = client.call(7, "trace_seen", json!({}), meta).await;
    let seen = &result["structuredContent"]["result"];

    let served = spans(TRACE_ID, "tools/call trace_seen");
    assert_eq!(served.len(), 1, "one server span for the call");
    let served = &served[0];
    assert_eq!(served.span_kind, SpanKind::Server);
    assert_eq!(
        served.parent_span_id.to_string(),
        CALLER_SPAN,
        "the caller's span is the parent"
    );
    for (key, value) in [
        ("mcp.method.name", "tools/call"),
        ("gen_ai.operation.name", "execute_tool"),
        ("gen_ai.tool.name", "trace_seen"),
        ("jsonrpc.request.id", "7"),
        ("network.transport", "pipe"),
    ] {
        assert_eq!(attribute(served, key).as_deref(), Some(value), "{key}");
    }
    assert!(attribute(served, "mcp.protocol.version").is_some());
    assert_eq!(attribute(served, "error.type"), None);

    // Behind the A2A hop: the agent's span and the tool's context have the server span as
    // their parent, in the same trace.
    let hop = spans(TRACE_ID, "execute_tool trace_seen");
    assert_eq!(hop.len(), 1, "one agent span for the call");
    let served_id = served.span_context.span_id().to_string();
    assert_eq!(hop[0].parent_span_id.to_string(), served_id);
    assert_eq!(hop[0].span_kind, SpanKind::Server);
    assert_eq!(*seen, json!({"trace_id": TRACE_ID, "parent_id": served_id}));
}

#[tokio::test]
async fn a_failed_call_records_its_error_type() {
    exported();
    let trace_id = "0af7651916cd43dd8448eb211c80319c";
    let mut client = StdioClient::start(McpServer::new(toolset![refuse]), "otel-test").await;
    let meta = json!({"traceparent": format!("00-{trace_id}-b7ad6b7169203331-01")});
    let result = client.call(1, "refuse", json!({}), meta).await;
    assert_eq!(result["isError"], true, "{result}");
    let served = spans(trace_id, "tools/call refuse");
    assert_eq!(served.len(), 1);
    assert_eq!(
        attribute(&served[0], "error.type").as_deref(),
        Some("tool_error")
    );
    assert_eq!(
        served[0].status,
        opentelemetry::trace::Status::error(""),
        "an error status"
    );
}

#[cfg(feature = "mcp-http")]
#[tokio::test]
async fn our_client_span_is_the_parent_of_the_servers() {
    use tokio_util::sync::CancellationToken;
    use tool_executor::mcp::{McpServerConfig, McpToolExecutor};
    use tracing::Instrument as _;

    exported();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    let shutdown = CancellationToken::new();
    let server = McpServer::new(toolset![trace_seen]);
    tokio::spawn(server.serve_http_on(listener, shutdown.clone()));
    let client = McpToolExecutor::connect(McpServerConfig::http("traced", url))
        .await
        .expect("connect");
    // The application's own span: the call starts a trace there.
    let caller = tracing::info_span!("caller");
    let out = client
        .execute_with_context("trace_seen", &json!({}), ToolContext::new())
        .instrument(caller.clone())
        .await
        .expect("call");
    drop(caller); // ended: exported
    shutdown.cancel();
    let (exporter, provider) = exported();
    provider.force_flush().unwrap();
    let all = exporter.get_finished_spans().unwrap();
    let caller = all
        .iter()
        .find(|s| s.name == "caller")
        .expect("the caller's span");
    let trace_id = caller.span_context.trace_id().to_string();
    let named = |kind: SpanKind| {
        all.iter()
            .find(|s| {
                s.name == "tools/call trace_seen"
                    && s.span_kind == kind
                    && s.span_context.trace_id().to_string() == trace_id
            })
            .unwrap_or_else(|| panic!("a {kind:?} span in the caller's trace"))
    };
    let (client_side, server_side) = (named(SpanKind::Client), named(SpanKind::Server));
    assert_eq!(client_side.parent_span_id, caller.span_context.span_id());
    assert_eq!(
        server_side.parent_span_id,
        client_side.span_context.span_id()
    );
    assert_eq!(
        attribute(server_side, "network.transport").as_deref(),
        Some("tcp")
    );
    let client_id = client_side.span_context.span_id().to_string();
    assert_eq!(
        out.output,
        json!({"trace_id": trace_id, "parent_id": client_id})
    );
}
