//! What an MCP request tells its tool beyond the arguments: the request's `_meta`, the
//! allow-listed HTTP headers and the server's own extensions, as [`Extensions`] values.

use rmcp::model::JsonObject;
use rmcp::service::{RequestContext, RoleServer};

use crate::tool::{Extensions, ToolContext, TraceContext};

/// The `_meta` object of the MCP request that called the tool, as an
/// [`Extensions`] value (`ctx.extension::<RequestMeta>()`): what a client sends beside the
/// arguments (a progress token, trace context, an application's own keys). Attached only when
/// the request has a non-empty `_meta`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RequestMeta(pub JsonObject);

impl RequestMeta {
    /// One key of `_meta`.
    #[must_use]
    pub fn get(&self, key: &str) -> Option<&serde_json::Value> {
        self.0.get(key)
    }
}

/// The per-server settings that decide what a call's context carries.
#[derive(Clone, Default)]
pub(super) struct ContextSettings {
    /// Values every call carries (`McpServer::with_extension`).
    pub(super) extensions: Extensions,
    /// Lower-case header names passed to tools (`McpServer::with_forwarded_headers`).
    #[cfg_attr(not(feature = "mcp-http"), allow(dead_code))]
    pub(super) forwarded_headers: Vec<String>,
}

impl ContextSettings {
    /// `ctx` with the request's `_meta`, its allow-listed headers and the server's values.
    /// Nothing is allocated for a request with no `_meta` on a server with no settings.
    pub(super) fn attach(
        &self,
        mut ctx: ToolContext,
        request: &RequestContext<RoleServer>,
    ) -> ToolContext {
        if !self.extensions.is_empty() {
            ctx = ctx.with_extensions(self.extensions.clone());
        }
        let meta = &request.meta.0.0;
        if !meta.is_empty() {
            if let Some(trace) = trace_of(meta) {
                ctx = ctx.with_extension(trace);
            }
            ctx = ctx.with_extension(RequestMeta(meta.clone()));
        }
        #[cfg(feature = "mcp-http")]
        if let Some(principal) = principal_of(request) {
            ctx = ctx.with_shared_extension(principal);
        }
        #[cfg(feature = "mcp-http")]
        if !self.forwarded_headers.is_empty()
            && let Some(parts) = request.extensions.get::<http::request::Parts>()
        {
            let headers = crate::tool::RequestHeaders::from_pairs(
                self.forwarded_headers.iter().flat_map(|name| {
                    parts
                        .headers
                        .get_all(name.as_str())
                        .iter()
                        .filter_map(move |value| Some((name, value.to_str().ok()?.to_owned())))
                }),
            );
            if !headers.is_empty() {
                ctx = ctx.with_extension(headers);
            }
        }
        ctx
    }
}

/// The principal the HTTP gate attached to a request (`McpServer::with_oauth`), if any.
#[cfg(feature = "mcp-http")]
pub(super) fn principal_of(
    request: &RequestContext<RoleServer>,
) -> Option<std::sync::Arc<crate::auth::Principal>> {
    request
        .extensions
        .get::<http::request::Parts>()?
        .extensions
        .get::<std::sync::Arc<crate::auth::Principal>>()
        .cloned()
}

/// The span of a `tools/call` this server answers (feature `tracing`): the OpenTelemetry MCP
/// conventions' name and attributes, joined to the trace the request's `_meta` carries.
#[cfg(feature = "tracing")]
pub(super) fn call_span(
    tool: &str,
    context: &RequestContext<RoleServer>,
    session: Option<&str>,
) -> tracing::Span {
    use crate::tool::span::{Kind, mcp};
    let trace = trace_of(&context.meta.0.0);
    let span = mcp(Kind::Server, "tools/call", Some(tool), None, trace.as_ref());
    span.record("jsonrpc.request.id", context.id.to_string());
    if let Some(session) = session {
        span.record("mcp.session.id", session);
    }
    if let Some(version) = context.protocol_version() {
        span.record("mcp.protocol.version", version.to_string());
    }
    #[cfg(feature = "mcp-http")]
    let over_http = context.extensions.get::<http::request::Parts>().is_some();
    #[cfg(not(feature = "mcp-http"))]
    let over_http = false;
    span.record("network.transport", if over_http { "tcp" } else { "pipe" });
    span
}

/// Records how a `tools/call` ended on its span: a JSON-RPC error's code, or `tool_error`
/// for a result with `isError`.
#[cfg(feature = "tracing")]
pub(super) fn record_call(
    span: &tracing::Span,
    answer: &Result<rmcp::model::CallToolResponse, rmcp::model::ErrorData>,
) {
    use rmcp::model::CallToolResponse;
    match answer {
        Err(error) => {
            crate::tool::span::failed(span, &error.code.0.to_string(), Some(error.code.0));
        }
        Ok(CallToolResponse::Complete(result)) if result.is_error == Some(true) => {
            crate::tool::span::failed(span, "tool_error", None);
        }
        Ok(_) => {}
    }
}

/// The W3C trace a request's `_meta` carries (SEP-414: `traceparent`, `tracestate`,
/// `baggage`), if its `traceparent` is valid.
fn trace_of(meta: &JsonObject) -> Option<TraceContext> {
    let mut trace = TraceContext::parse(meta.get("traceparent")?.as_str()?)?;
    if let Some(state) = meta.get("tracestate").and_then(|v| v.as_str()) {
        trace = trace.with_tracestate(state);
    }
    if let Some(baggage) = meta.get("baggage").and_then(|v| v.as_str()) {
        trace = trace.with_baggage(baggage);
    }
    Some(trace)
}

/// `_meta` keys that carry `child`, this hop's trace context, to the next hop (SEP-414).
pub(super) fn propagate(child: Option<TraceContext>, meta: &mut JsonObject) {
    let Some(child) = child else {
        return;
    };
    meta.insert("traceparent".into(), child.traceparent().into());
    if let Some(state) = child.tracestate() {
        meta.insert("tracestate".into(), state.into());
    }
    if let Some(baggage) = child.baggage() {
        meta.insert("baggage".into(), baggage.into());
    }
}
