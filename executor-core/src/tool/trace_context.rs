//! `TraceContext`: the W3C trace a call belongs to, carried from hop to hop.

use std::hash::{BuildHasher, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};

/// The W3C Trace Context a call arrived with (`traceparent`, `tracestate`, `baggage`), as a
/// [`ToolContext`](crate::ToolContext) extension: read from an MCP request's `_meta` (SEP-414)
/// or an A2A request's headers, and sent on by `McpToolExecutor` and `A2aToolExecutor` as a
/// child (same trace id, a new parent id), so one trace id crosses every hop.
///
/// ```
/// use tool_executor::tool::TraceContext;
///
/// let trace = TraceContext::parse("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01").unwrap();
/// assert_eq!(trace.trace_id(), "4bf92f3577b34da6a3ce929d0e0e4736");
/// let child = trace.child();
/// assert_eq!(child.trace_id(), trace.trace_id());
/// assert_ne!(child.parent_id(), trace.parent_id());
/// assert!(TraceContext::parse("00-00000000000000000000000000000000-00f067aa0ba902b7-01").is_none());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TraceContext {
    trace_id: String,
    parent_id: String,
    flags: String,
    tracestate: Option<String>,
    baggage: Option<String>,
}

impl TraceContext {
    /// A `traceparent` of version `00`: `00-<32 hex trace id>-<16 hex parent id>-<2 hex
    /// flags>`, neither id all zeros. `None` for anything else (W3C: an invalid header is
    /// ignored).
    #[must_use]
    pub fn parse(traceparent: &str) -> Option<Self> {
        let mut parts = traceparent.trim().split('-');
        let (version, trace_id, parent_id, flags) =
            (parts.next()?, parts.next()?, parts.next()?, parts.next()?);
        let hex = |s: &str, len: usize| {
            s.len() == len
                && s.bytes()
                    .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
        };
        let valid = version == "00"
            && parts.next().is_none()
            && hex(trace_id, 32)
            && hex(parent_id, 16)
            && hex(flags, 2)
            && trace_id.bytes().any(|b| b != b'0')
            && parent_id.bytes().any(|b| b != b'0');
        valid.then(|| Self {
            trace_id: trace_id.to_owned(),
            parent_id: parent_id.to_owned(),
            flags: flags.to_owned(),
            tracestate: None,
            baggage: None,
        })
    }

    /// With the vendor `tracestate` that came along.
    #[must_use]
    pub fn with_tracestate(mut self, tracestate: impl Into<String>) -> Self {
        self.tracestate = Some(tracestate.into());
        self
    }

    /// With the W3C `baggage` that came along.
    #[must_use]
    pub fn with_baggage(mut self, baggage: impl Into<String>) -> Self {
        self.baggage = Some(baggage.into());
        self
    }

    /// The 32 hex digits every hop of the trace shares.
    #[must_use]
    pub fn trace_id(&self) -> &str {
        &self.trace_id
    }

    /// The caller's span (16 hex digits).
    #[must_use]
    pub fn parent_id(&self) -> &str {
        &self.parent_id
    }

    /// The `traceparent` header value.
    #[must_use]
    pub fn traceparent(&self) -> String {
        format!("00-{}-{}-{}", self.trace_id, self.parent_id, self.flags)
    }

    /// The `tracestate`, if any.
    #[must_use]
    pub fn tracestate(&self) -> Option<&str> {
        self.tracestate.as_deref()
    }

    /// The `baggage`, if any.
    #[must_use]
    pub fn baggage(&self) -> Option<&str> {
        self.baggage.as_deref()
    }

    /// The context of a call this hop makes: the same trace and state, a new parent id (this
    /// hop's span).
    #[must_use]
    pub fn child(&self) -> Self {
        Self {
            parent_id: span_id(),
            ..self.clone()
        }
    }

    /// What a call out of `ctx` sends: with feature `otel`, the context of the span the call
    /// runs in (the server's span for it, else the current one), in the caller's trace or
    /// starting one; without it, a child of the trace the call came with.
    #[must_use]
    #[cfg_attr(not(any(feature = "mcp", feature = "a2a-client")), allow(dead_code))]
    pub(crate) fn outgoing(ctx: &super::context::ToolContext) -> Option<Self> {
        let incoming = ctx.extension::<Self>();
        #[cfg(feature = "otel")]
        {
            let current = tracing::Span::current();
            let span = ctx.extension::<CallSpan>().map_or(&current, |call| &call.0);
            if let Some(ours) = Self::from_span(span, incoming) {
                return Some(ours);
            }
        }
        incoming.map(Self::child)
    }
}

#[cfg(feature = "otel")]
impl TraceContext {
    /// `span`'s OpenTelemetry context, when an OpenTelemetry layer gave it one, carrying
    /// `incoming`'s state and baggage when it is in the same trace.
    #[cfg_attr(not(any(feature = "mcp", feature = "a2a-client")), allow(dead_code))]
    pub(crate) fn from_span(span: &tracing::Span, incoming: Option<&Self>) -> Option<Self> {
        use opentelemetry::trace::TraceContextExt as _;
        use tracing_opentelemetry::OpenTelemetrySpanExt as _;
        let context = span.context();
        let otel = context.span();
        let ours = otel.span_context();
        if !ours.is_valid() {
            return None;
        }
        let trace_id = ours.trace_id().to_string();
        let same = incoming.filter(|t| t.trace_id == trace_id);
        Some(Self {
            trace_id,
            parent_id: ours.span_id().to_string(),
            flags: format!("{:02x}", ours.trace_flags().to_u8()),
            tracestate: same
                .and_then(|t| t.tracestate.clone())
                .or_else(|| Some(ours.trace_state().header()).filter(|s| !s.is_empty())),
            baggage: same.and_then(|t| t.baggage.clone()),
        })
    }

    /// This context as OpenTelemetry's remote span context.
    pub(crate) fn span_context(&self) -> Option<opentelemetry::trace::SpanContext> {
        use opentelemetry::trace::{SpanContext, SpanId, TraceFlags, TraceId, TraceState};
        let trace_id = TraceId::from_hex(&self.trace_id).ok()?;
        let span_id = SpanId::from_hex(&self.parent_id).ok()?;
        let flags = u8::from_str_radix(&self.flags, 16).ok()?;
        let state = self
            .tracestate
            .as_deref()
            .and_then(|s| s.parse::<TraceState>().ok())
            .unwrap_or_default();
        Some(SpanContext::new(
            trace_id,
            span_id,
            TraceFlags::new(flags),
            true,
            state,
        ))
    }
}

/// The span a served call runs in (feature `tracing`), as a
/// [`ToolContext`](super::context::ToolContext) extension: the parent of the spans and trace
/// contexts of the calls it makes, whatever task its future runs on.
#[cfg(feature = "tracing")]
#[derive(Debug, Clone)]
#[cfg_attr(not(any(feature = "otel", feature = "mcp")), allow(dead_code))]
pub(crate) struct CallSpan(pub(crate) tracing::Span);

/// 16 hex digits, never all zeros: not for secrets, only distinct per span.
fn span_id() -> String {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u64(NEXT.fetch_add(1, Ordering::Relaxed));
    let id = hasher.finish().max(1);
    format!("{id:016x}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_version_00_with_valid_ids_parses_and_it_round_trips() {
        let text = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
        assert_eq!(TraceContext::parse(text).unwrap().traceparent(), text);
        for bad in [
            "01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
            "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01",
            "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01",
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7",
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-x",
        ] {
            assert!(TraceContext::parse(bad).is_none(), "{bad}");
        }
    }

    #[test]
    fn children_keep_the_trace_and_state_and_get_new_parents() {
        let trace = TraceContext::parse("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")
            .unwrap()
            .with_tracestate("vendor=1")
            .with_baggage("user=alice");
        let (a, b) = (trace.child(), trace.child());
        assert_ne!(a.parent_id(), b.parent_id());
        assert_eq!(a.tracestate(), Some("vendor=1"));
        assert_eq!(a.baggage(), Some("user=alice"));
        assert!(TraceContext::parse(&a.traceparent()).is_some());
    }
}
