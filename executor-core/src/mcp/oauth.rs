//! Streamable HTTP as an OAuth 2.1 protected resource (`McpServer::with_oauth`): the metadata
//! document, the bearer check in front of rmcp, and per-tool scopes.
//!
//! The gate (`sessions.rs`) asks [`Guard::admit`] about every request once its body is read:
//! - a GET of the RFC 9728 path answers the metadata (no token needed);
//! - any other request without a good token is 401 (`WWW-Authenticate: Bearer
//!   resource_metadata=…`), 400 for a malformed header, 503 when the keys cannot be fetched;
//! - a `tools/call` of a tool whose [`scopes`](crate::tool::ToolSpec::scopes) the token lacks
//!   is 403 `insufficient_scope` naming them, before the tool runs;
//! - otherwise the [`Principal`] rides in the request's extensions to the call's context, and
//!   `tools/list` shows the caller only the tools its scopes allow.

use std::sync::Arc;

use http::request::Parts;
use http::{Response, StatusCode, header};
use http_body_util::{BodyExt, Full, combinators::BoxBody};
use hyper::body::Bytes;
use serde_json::json;

use super::server::McpServer;
use crate::auth::{AuthError, ResourceServer};
use crate::tool::ToolExecutor;

type Body = BoxBody<Bytes, std::convert::Infallible>;

#[cfg_attr(docsrs, doc(cfg(all(feature = "mcp-http", feature = "oauth"))))]
impl McpServer {
    /// Makes streamable HTTP an OAuth 2.1 protected resource checked by `oauth`: the
    /// metadata at `/.well-known/oauth-protected-resource…`, every other request refused
    /// without a good bearer token (401/403 as the MCP authorization spec says), the token's
    /// [`Principal`](crate::auth::Principal) in each call's context, and each tool's
    /// [`scopes`](crate::tool::ToolSpec::scopes) required to list and call it. Stdio is
    /// unaffected (its one client is trusted; give it a principal with
    /// [`with_extension`](Self::with_extension)).
    ///
    /// ```
    /// use tool_executor::auth::ResourceServer;
    /// use tool_executor::prelude::*;
    ///
    /// /// Deletes a note.
    /// #[tool]
    /// fn delete_note(id: u64) -> bool { id > 0 }
    ///
    /// let oauth = ResourceServer::new("http://127.0.0.1:8080/mcp")
    ///     .with_authorization_server("http://127.0.0.1:9000")
    ///     .with_jwks_uri("http://127.0.0.1:9000/jwks");
    /// let server = tool_executor::mcp_server!(toolset![delete_note]).with_oauth(oauth);
    /// // `server.serve_http(addr).await?`
    /// ```
    #[must_use]
    pub fn with_oauth(self, oauth: ResourceServer) -> Self {
        self.edit(|i| i.oauth = Some(oauth))
    }
}

/// What the gate needs to check a request.
#[derive(Clone)]
pub(crate) struct Guard {
    oauth: ResourceServer,
    executor: Arc<dyn ToolExecutor>,
}

impl Guard {
    pub(crate) fn of(server: &McpServer) -> Option<Self> {
        let oauth = server.inner.oauth.clone()?;
        Some(Self {
            oauth,
            executor: server.executor(),
        })
    }

    /// `Ok` with the principal added to `parts`, or the answer that refuses the request.
    pub(crate) async fn admit(&self, parts: &mut Parts, body: &[u8]) -> Result<(), Response<Body>> {
        if parts.method == http::Method::GET && self.oauth.is_metadata_path(parts.uri.path()) {
            return Err(metadata(&self.oauth));
        }
        let authorization = parts
            .headers
            .get(header::AUTHORIZATION)
            .map(|value| value.to_str().unwrap_or(""));
        let principal = match self.oauth.authenticate(authorization).await {
            Ok(principal) => principal,
            Err(error) => return Err(refuse(&self.oauth, &error)),
        };
        if parts.method == http::Method::POST
            && let Some(tool) = called_tool(body)
            && let Some(spec) = self.executor.specs().iter().find(|s| s.name == tool)
        {
            let needed: Vec<String> = spec
                .scopes
                .iter()
                .filter(|scope| !principal.has_scope(scope))
                .cloned()
                .collect();
            if !needed.is_empty() {
                return Err(refuse(
                    &self.oauth,
                    &AuthError::InsufficientScope { needed },
                ));
            }
        }
        parts.extensions.insert(principal);
        Ok(())
    }
}

/// The tool a `tools/call` body names (only `method` and `params.name` are read).
fn called_tool(body: &[u8]) -> Option<String> {
    #[derive(serde::Deserialize)]
    struct Probe {
        method: Option<String>,
        params: Option<Params>,
    }
    #[derive(serde::Deserialize)]
    struct Params {
        name: Option<String>,
    }
    let probe: Probe = serde_json::from_slice(body).ok()?;
    (probe.method.as_deref() == Some("tools/call"))
        .then_some(probe.params?.name)
        .flatten()
}

fn metadata(oauth: &ResourceServer) -> Response<Body> {
    Response::builder()
        .status(StatusCode::OK)
        .header(header::CONTENT_TYPE, "application/json")
        .header(header::CACHE_CONTROL, "max-age=3600")
        .body(Full::new(Bytes::from(oauth.metadata().to_string())).boxed())
        .expect("a valid response")
}

fn refuse(oauth: &ResourceServer, error: &AuthError) -> Response<Body> {
    let (status, challenge) = oauth.challenge(error);
    let body = json!({
        "error": error.oauth_code().unwrap_or("unauthorized"),
        "error_description": error.to_string(),
    });
    let mut response = Response::builder()
        .status(StatusCode::from_u16(status).unwrap_or(StatusCode::UNAUTHORIZED))
        .header(header::CONTENT_TYPE, "application/json");
    if status == 503 {
        response = response.header(header::RETRY_AFTER, "5");
    } else {
        response = response.header(header::WWW_AUTHENTICATE, challenge);
    }
    response
        .body(Full::new(Bytes::from(body.to_string())).boxed())
        .expect("a valid response")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_tools_call_names_a_tool() {
        let call = br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{}}}"#;
        assert_eq!(called_tool(call).as_deref(), Some("x"));
        let list = br#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#;
        assert_eq!(called_tool(list), None);
        assert_eq!(called_tool(b"not json"), None);
    }
}
