//! An A2A agent as an OAuth 2.1 protected resource (`ToolAgent::with_oauth`): the bearer
//! check as an interceptor of the server crate (401 with `WWW-Authenticate` before any task
//! exists), the RFC 9728 metadata beside the card, and the card's security scheme.
//!
//! The token's [`Principal`](crate::auth::Principal), scopes included, reaches each tool's
//! context through `ToolAgent`, which reads it from the same token (checked once: the resource
//! server remembers verified tokens); a tool whose scopes the token lacks fails its task with
//! code `insufficient_scope` before its body runs.

use std::collections::HashMap;
use std::convert::Infallible;
use std::future::Future;
use std::pin::Pin;

use a2a_protocol_server::CallContext;
use a2a_protocol_server::interceptor::ServerInterceptor;
use a2a_protocol_server::serve::DispatchResponse;
use a2a_protocol_types::agent_card::AgentCard;
use a2a_protocol_types::error::{A2aError, A2aResult};
use a2a_protocol_types::security::{
    HttpAuthSecurityScheme, SecurityRequirement, SecurityScheme, StringList,
};
use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;

use crate::auth::{AuthError, ResourceServer};

/// The name of the scheme in the card.
const SCHEME: &str = "oauth2-bearer";

/// Refuses every call without a good bearer token (the card stays public).
pub(super) struct OAuthInterceptor(pub(super) ResourceServer);

impl ServerInterceptor for OAuthInterceptor {
    fn before<'a>(
        &'a self,
        ctx: &'a CallContext,
    ) -> Pin<Box<dyn Future<Output = A2aResult<()>> + Send + 'a>> {
        Box::pin(async move {
            let header = ctx.http_headers().get("authorization").map(String::as_str);
            match self.0.authenticate(header).await {
                Ok(principal) => {
                    ctx.set_caller_identity(principal.subject());
                    ctx.set_auth_scheme("bearer");
                    Ok(())
                }
                Err(AuthError::Unavailable(why)) => Err(A2aError::internal(format!(
                    "cannot check the token now: {why}"
                ))),
                Err(error) => {
                    let (_, challenge) = self.0.challenge(&error);
                    Err(A2aError::unauthenticated(error.to_string(), challenge))
                }
            }
        })
    }

    fn authenticates(&self) -> bool {
        true
    }

    fn after<'a>(
        &'a self,
        _ctx: &'a CallContext,
    ) -> Pin<Box<dyn Future<Output = A2aResult<()>> + Send + 'a>> {
        Box::pin(async { Ok(()) })
    }
}

/// The card with a bearer scheme that names the metadata, required on every call.
pub(super) fn secure_card(mut card: AgentCard, oauth: &ResourceServer) -> AgentCard {
    let scheme = SecurityScheme::Http(HttpAuthSecurityScheme {
        description: Some(format!(
            "OAuth 2.1 bearer token for {} (protected-resource metadata: {})",
            oauth.resource(),
            oauth.metadata_url()
        )),
        scheme: "Bearer".to_owned(),
        bearer_format: Some("JWT".to_owned()),
    });
    card.security_schemes = Some(HashMap::from([(SCHEME.to_owned(), scheme)]));
    card.security_requirements = Some(vec![SecurityRequirement {
        schemes: HashMap::from([(SCHEME.to_owned(), StringList { list: Vec::new() })]),
    }]);
    card
}

/// The metadata document, when `path` asks for it.
pub(super) fn metadata(oauth: &ResourceServer, path: &str) -> Option<DispatchResponse> {
    if !oauth.is_metadata_path(path) {
        return None;
    }
    let body = Full::new(Bytes::from(oauth.metadata().to_string()))
        .map_err(|never: Infallible| match never {})
        .boxed();
    let mut response = hyper::Response::new(body);
    response.headers_mut().insert(
        hyper::header::CONTENT_TYPE,
        hyper::header::HeaderValue::from_static("application/json"),
    );
    Some(response)
}
