//! The HTTP client [`McpToolExecutor`](super::McpToolExecutor) connects with.

use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;

/// rmcp's streamable HTTP transport to `url` on a `reqwest` client of our own, built as
/// rmcp's default one is except that each setting is stated here so it stays:
///
/// - `TCP_NODELAY` on every socket it opens, so a request is never held back waiting for an
///   ACK of the previous write (issue 13);
/// - no idle connection kept: each call opens its own. Measured against our server (which
///   sets `TCP_NODELAY`), that costs nothing we can see (BENCHMARKS.md §10.1), and a
///   kept connection to a server that leaves Nagle on (axum's `serve` does by default)
///   stalls every call on the client's delayed ACK, about 40 ms;
/// - only same-origin 307 and 308 redirects are followed (at most 10): a 301, 302 or 303
///   would turn the POST into a bodyless GET, and another origin would get the session id.
pub(super) fn transport(
    url: &str,
) -> Result<StreamableHttpClientTransport<reqwest::Client>, reqwest::Error> {
    Ok(StreamableHttpClientTransport::with_client(
        client()?,
        StreamableHttpClientTransportConfig::with_uri(url),
    ))
}

fn client() -> Result<reqwest::Client, reqwest::Error> {
    reqwest::Client::builder()
        .tcp_nodelay(true)
        .pool_max_idle_per_host(0)
        .redirect(reqwest::redirect::Policy::custom(same_origin_307_308))
        .build()
}

/// [`transport`] with a bearer token from `tokens` on every request (`with_token_provider`).
#[cfg(feature = "oauth")]
pub(super) fn authorized(
    url: &str,
    tokens: std::sync::Arc<dyn crate::auth::TokenProvider>,
) -> Result<StreamableHttpClientTransport<super::authorized::Authorized>, reqwest::Error> {
    let client = super::authorized::Authorized {
        inner: client()?,
        resource: url.into(),
        tokens,
        challenge: std::sync::Arc::default(),
    };
    Ok(StreamableHttpClientTransport::with_client(
        client,
        StreamableHttpClientTransportConfig::with_uri(url),
    ))
}

/// Follows a redirect only when it keeps the method, the body and the origin.
fn same_origin_307_308(attempt: reqwest::redirect::Attempt<'_>) -> reqwest::redirect::Action {
    let keeps_body = matches!(
        attempt.status(),
        reqwest::StatusCode::TEMPORARY_REDIRECT | reqwest::StatusCode::PERMANENT_REDIRECT
    );
    let same_origin = attempt
        .previous()
        .first()
        .is_some_and(|first| first.origin() == attempt.url().origin());
    if !keeps_body || !same_origin {
        attempt.stop()
    } else if attempt.previous().len() > 10 {
        attempt.error("more than 10 redirects")
    } else {
        attempt.follow()
    }
}
