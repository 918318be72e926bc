//! Enterprise-managed authorization (the MCP extension for cross-app access): the user's
//! enterprise identity provider vouches for them with an identity assertion grant (ID-JAG), so
//! no one is sent to a consent screen.

use std::fmt;

use tokio::sync::Mutex;

use super::client::{Granted, TokenProvider, request_token};
use super::discovery::discover;
use super::fetch::{ClientAuth, default_client};
use crate::tool::BoxFuture;

const TOKEN_EXCHANGE: &str = "urn:ietf:params:oauth:grant-type:token-exchange";
const JWT_BEARER_GRANT: &str = "urn:ietf:params:oauth:grant-type:jwt-bearer";
const ID_JAG: &str = "urn:ietf:params:oauth:token-type:id-jag";
const ID_TOKEN: &str = "urn:ietf:params:oauth:token-type:id_token";

/// Cross-app access: the user's ID token from the enterprise identity provider is exchanged
/// there (RFC 8693) for an identity assertion grant naming the MCP server's authorization
/// server and resource, which that server's token endpoint exchanges (RFC 7523 `jwt-bearer`,
/// the client authenticated with HTTP Basic) for the access token.
///
/// ```
/// use tool_executor::auth::CrossAppAccess;
///
/// # let id_token = String::new();
/// let tokens = CrossAppAccess::new("https://idp.example.com/token", "notes-assistant", id_token)
///     .with_client("notes-assistant-at-notes", "s3cret");
/// # let _ = tokens;
/// ```
pub struct CrossAppAccess {
    idp_token_endpoint: String,
    idp_client_id: String,
    id_token: String,
    client: Option<(String, String)>,
    http: reqwest::Client,
    cached: Mutex<Option<Granted>>,
}

impl fmt::Debug for CrossAppAccess {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CrossAppAccess")
            .field("idp_token_endpoint", &self.idp_token_endpoint)
            .field("idp_client_id", &self.idp_client_id)
            .finish_non_exhaustive()
    }
}

impl CrossAppAccess {
    /// The identity provider's token endpoint, this client's id there, and the user's ID token.
    #[must_use]
    pub fn new(
        idp_token_endpoint: impl Into<String>,
        idp_client_id: impl Into<String>,
        id_token: impl Into<String>,
    ) -> Self {
        Self {
            idp_token_endpoint: idp_token_endpoint.into(),
            idp_client_id: idp_client_id.into(),
            id_token: id_token.into(),
            client: None,
            http: default_client(),
            cached: Mutex::new(None),
        }
    }

    /// The client's credentials at the MCP server's authorization server (without them it
    /// names itself with the identity provider's client id).
    #[must_use]
    pub fn with_client(mut self, id: impl Into<String>, secret: impl Into<String>) -> Self {
        self.client = Some((id.into(), secret.into()));
        self
    }

    /// The HTTP client for discovery and both token endpoints.
    #[must_use]
    pub fn with_http_client(mut self, http: reqwest::Client) -> Self {
        self.http = http;
        self
    }

    async fn fetch(&self, server: &str, challenge: Option<&str>) -> Result<Granted, String> {
        let found = discover(&self.http, server, challenge, None).await?;
        let grants = found.metadata["grant_types_supported"].as_array();
        if !grants.is_some_and(|g| g.iter().any(|g| g == JWT_BEARER_GRANT)) {
            return Err(format!(
                "{} does not offer the jwt-bearer grant cross-app access needs",
                found.issuer
            ));
        }
        let exchange = [
            ("grant_type", TOKEN_EXCHANGE),
            ("requested_token_type", ID_JAG),
            ("audience", found.issuer.as_str()),
            ("resource", found.resource.as_str()),
            ("subject_token", self.id_token.as_str()),
            ("subject_token_type", ID_TOKEN),
        ];
        let assertion = request_token(
            &self.http,
            &self.idp_token_endpoint,
            ClientAuth::None(&self.idp_client_id),
            &exchange,
        )
        .await?
        .token;
        let token_endpoint = found.endpoint("token_endpoint")?;
        let auth = match &self.client {
            Some((id, secret)) => ClientAuth::Basic(id, secret),
            None => ClientAuth::None(&self.idp_client_id),
        };
        let form = [
            ("grant_type", JWT_BEARER_GRANT),
            ("assertion", assertion.as_str()),
        ];
        request_token(&self.http, token_endpoint, auth, &form).await
    }
}

impl TokenProvider for CrossAppAccess {
    fn token<'a>(
        &'a self,
        resource: &'a str,
        challenge: Option<&'a str>,
        stale: Option<&'a str>,
    ) -> BoxFuture<'a, Result<String, String>> {
        Box::pin(async move {
            let mut cached = self.cached.lock().await;
            if let Some(token) = Granted::usable(cached.as_ref(), stale) {
                return Ok(token);
            }
            let granted = self.fetch(resource, challenge).await?;
            let token = granted.token.clone();
            *cached = Some(granted);
            Ok(token)
        })
    }
}
