//! The caller's W3C trace on every A2A request a call makes: `traceparent` (this hop, a child
//! of the caller's span; with feature `otel`, the span the call runs in, which also starts a
//! trace when the call came without one), `tracestate` and `baggage` headers, added by a client
//! interceptor from the context the running call set.

use std::future::Future;

use a2a_protocol_client::error::ClientResult;
use a2a_protocol_client::interceptor::{CallInterceptor, ClientRequest, ClientResponse};

use crate::tool::TraceContext;

tokio::task_local! {
    /// What the requests of the running call send: this hop's trace context.
    static TRACE: Option<TraceContext>;
}

/// Runs `work` (one call's requests) sending `trace` (already this hop's context).
pub(super) async fn scope<F: Future>(trace: Option<TraceContext>, work: F) -> F::Output {
    TRACE.scope(trace, work).await
}

/// Adds the running call's trace to each request.
pub(super) struct Propagate;

impl CallInterceptor for Propagate {
    fn before<'a>(
        &'a self,
        req: &'a mut ClientRequest,
    ) -> impl Future<Output = ClientResult<()>> + Send + 'a {
        let trace = TRACE.try_with(Clone::clone);
        async move {
            if let Ok(Some(child)) = trace {
                let headers = &mut req.extra_headers;
                headers.insert("traceparent".to_owned(), child.traceparent());
                if let Some(state) = child.tracestate() {
                    headers.insert("tracestate".to_owned(), state.to_owned());
                }
                if let Some(baggage) = child.baggage() {
                    headers.insert("baggage".to_owned(), baggage.to_owned());
                }
            }
            Ok(())
        }
    }

    async fn after<'a>(&'a self, _resp: &'a ClientResponse) -> ClientResult<()> {
        Ok(())
    }
}
