//! Spans for calls served and sent across a transport (feature `tracing`), named by the
//! OpenTelemetry conventions: MCP requests as `{mcp.method.name} {target}` (`tools/call
//! get_weather`) with `mcp.method.name`, `gen_ai.tool.name`, `gen_ai.operation.name`,
//! `jsonrpc.request.id`, `mcp.session.id`, `mcp.protocol.version`, `network.transport`,
//! `error.type` and `rpc.response.status_code`; an A2A call's tool as `execute_tool {tool}`
//! (the `GenAI` name). `otel.kind` is `server` or `client`. With feature `otel` a served span's
//! parent is the caller's W3C trace context, so an OpenTelemetry layer puts it in the caller's
//! trace.

// Used by the transports: without `mcp` or `a2a` there is nothing to span yet.
#![cfg_attr(
    not(all(feature = "mcp", feature = "a2a")),
    allow(dead_code, unused_imports)
)]

use tracing::field::Empty;

pub(crate) use super::trace_context::CallSpan;
use super::trace_context::TraceContext;

/// Which side of a request a span stands for.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Kind {
    Server,
    Client,
}

impl Kind {
    const fn name(self) -> &'static str {
        match self {
            Self::Server => "server",
            Self::Client => "client",
        }
    }
}

/// The span of one MCP request (`method` on `target`, a tool's name for `tools/call`), a child
/// of `parent` (else of the current span), or of the caller's `trace`.
pub(crate) fn mcp(
    kind: Kind,
    method: &str,
    target: Option<&str>,
    parent: Option<&tracing::Span>,
    trace: Option<&TraceContext>,
) -> tracing::Span {
    let name = match target {
        Some(target) => format!("{method} {target}"),
        None => method.to_owned(),
    };
    let parent = parent.cloned().unwrap_or_else(tracing::Span::current);
    let span = tracing::info_span!(
        parent: &parent,
        "mcp",
        "otel.name" = %name,
        "otel.kind" = kind.name(),
        "otel.status_code" = Empty,
        "mcp.method.name" = method,
        "gen_ai.operation.name" = Empty,
        "gen_ai.tool.name" = Empty,
        "jsonrpc.request.id" = Empty,
        "mcp.session.id" = Empty,
        "mcp.protocol.version" = Empty,
        "network.transport" = Empty,
        "error.type" = Empty,
        "rpc.response.status_code" = Empty,
    );
    if method == "tools/call"
        && let Some(tool) = target
    {
        span.record("gen_ai.operation.name", "execute_tool");
        span.record("gen_ai.tool.name", tool);
    }
    if let Some(trace) = trace {
        join(&span, trace);
    }
    span
}

/// The span of a tool an A2A request runs (`execute_tool {tool}`, server side).
pub(crate) fn a2a_tool(tool: &str, trace: Option<&TraceContext>) -> tracing::Span {
    let span = tracing::info_span!(
        "execute_tool",
        "otel.name" = %format_args!("execute_tool {tool}"),
        "otel.kind" = "server",
        "otel.status_code" = Empty,
        "gen_ai.operation.name" = "execute_tool",
        "gen_ai.tool.name" = tool,
        "network.protocol.name" = "a2a",
        "error.type" = Empty,
    );
    if let Some(trace) = trace {
        join(&span, trace);
    }
    span
}

/// Records a failed request on `span`: `error.type` (a JSON-RPC error's code, or
/// `tool_error` for a result with `isError`) and the error status.
pub(crate) fn failed(span: &tracing::Span, error_type: &str, status_code: Option<i32>) {
    span.record("error.type", error_type);
    span.record("otel.status_code", "ERROR");
    if let Some(code) = status_code {
        span.record("rpc.response.status_code", code.to_string());
    }
}

/// Makes `span` a child of the caller's `trace` (feature `otel`; without it, a no-op: the
/// trace still reaches the tool's context).
#[cfg_attr(not(feature = "otel"), allow(unused_variables))]
fn join(span: &tracing::Span, trace: &TraceContext) {
    #[cfg(feature = "otel")]
    if let Some(remote) = trace.span_context() {
        use opentelemetry::trace::TraceContextExt as _;
        use tracing_opentelemetry::OpenTelemetrySpanExt as _;
        let parent = opentelemetry::Context::new().with_remote_span_context(remote);
        // Without an OpenTelemetry layer there is nothing to join: the span stays as it is.
        let _ = span.set_parent(parent);
    }
}
