//! The client side: tokens for a protected MCP server, found the way the MCP authorization
//! spec says (the server's RFC 9728 metadata, then its authorization server's RFC 8414
//! metadata) and obtained by the client-credentials grant, or from a provider of your own.

use std::sync::Arc;
use std::time::Duration;

use serde_json::Value;
use tokio::sync::Mutex;
use tokio::time::Instant;

use super::fetch::{get_json, issuer_metadata, post_form, well_known};

/// A token is fetched again this long before it expires.
const EARLY: Duration = Duration::from_secs(30);

/// Where a client gets bearer tokens for a server: [`ClientCredentials`], or your own (an
/// interactive authorization-code flow, a token from a secrets store).
///
/// `token` is asked before the first request and again, with `stale` set to the token the
/// server refused, after a 401: a provider then fetches a new one rather than answering from
/// its cache. `challenge` is the server's `WWW-Authenticate` value, when there is one.
pub trait TokenProvider: Send + Sync + 'static {
    /// A bearer token for `resource` (the server's URL).
    fn token<'a>(
        &'a self,
        resource: &'a str,
        challenge: Option<&'a str>,
        stale: Option<&'a str>,
    ) -> crate::tool::BoxFuture<'a, Result<String, String>>;
}

/// The OAuth client-credentials grant (machine to machine), with discovery: on first use (or
/// the server's 401) it reads the server's protected-resource metadata (the challenge's
/// `resource_metadata`, else the RFC 9728 well-known path), then its authorization server's
/// metadata (RFC 8414, then `OpenID` discovery), and asks the token endpoint for a token for
/// the server's resource (RFC 8707) with HTTP Basic client authentication. The token is kept
/// until 30 s before it expires.
///
/// ```
/// use tool_executor::auth::ClientCredentials;
///
/// let tokens = ClientCredentials::new("reporting-bot", "s3cret")
///     .with_scope("notes:read")
///     .with_issuer("https://auth.example.com");
/// # let _ = tokens;
/// ```
#[derive(Debug)]
pub struct ClientCredentials {
    client_id: String,
    client_secret: String,
    scope: Option<String>,
    issuer: Option<String>,
    http: reqwest::Client,
    cached: Mutex<Option<Cached>>,
}

#[derive(Debug, Clone)]
struct Cached {
    token: String,
    until: Option<Instant>,
}

impl ClientCredentials {
    /// The client's id and secret at its authorization server.
    #[must_use]
    pub fn new(client_id: impl Into<String>, client_secret: impl Into<String>) -> Self {
        Self {
            client_id: client_id.into(),
            client_secret: client_secret.into(),
            scope: None,
            issuer: None,
            http: reqwest::Client::builder()
                .timeout(Duration::from_secs(10))
                .redirect(reqwest::redirect::Policy::none())
                .build()
                .unwrap_or_default(),
            cached: Mutex::new(None),
        }
    }

    /// The scopes to ask for (space-separated).
    #[must_use]
    pub fn with_scope(mut self, scope: impl Into<String>) -> Self {
        self.scope = Some(scope.into());
        self
    }

    /// Sends the credentials only to this authorization server: a server whose metadata
    /// names another one is refused (so a server cannot collect your secret).
    #[must_use]
    pub fn with_issuer(mut self, issuer: impl Into<String>) -> Self {
        self.issuer = Some(issuer.into());
        self
    }

    /// The HTTP client for discovery and the token endpoint (TLS, a proxy).
    #[must_use]
    pub fn with_http_client(mut self, http: reqwest::Client) -> Self {
        self.http = http;
        self
    }

    async fn fetch(&self, resource: &str, challenge: Option<&str>) -> Result<Cached, String> {
        let metadata_url = challenge
            .and_then(|c| parameter(c, "resource_metadata"))
            .unwrap_or_else(|| well_known(resource, "oauth-protected-resource"));
        let protected = get_json(&self.http, &metadata_url).await?;
        let servers: Vec<&str> = protected["authorization_servers"]
            .as_array()
            .map(|list| list.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let issuer = match &self.issuer {
            Some(issuer) => servers
                .iter()
                .find(|s| same_issuer(s, issuer))
                .copied()
                .ok_or_else(|| {
                    format!(
                        "{metadata_url} names authorization servers {servers:?}, not {issuer}; \
                         the credentials are not sent"
                    )
                })?,
            None => servers
                .first()
                .copied()
                .ok_or_else(|| format!("{metadata_url} names no authorization server"))?,
        };
        let resource = protected["resource"]
            .as_str()
            .unwrap_or(resource)
            .to_owned();
        let token_endpoint = issuer_metadata(&self.http, issuer, "token_endpoint").await?;
        let mut form = vec![
            ("grant_type", "client_credentials"),
            ("resource", resource.as_str()),
        ];
        if let Some(scope) = &self.scope {
            form.push(("scope", scope.as_str()));
        }
        let credentials = (self.client_id.as_str(), self.client_secret.as_str());
        let (status, body) = post_form(&self.http, &token_endpoint, credentials, &form)
            .await
            .map_err(|e| format!("token endpoint {token_endpoint}: {e}"))?;
        let answer: Value = serde_json::from_slice(&body)
            .map_err(|e| format!("token endpoint {token_endpoint}: {e}"))?;
        if !status.is_success() || answer.get("error").is_some() {
            return Err(format!(
                "token endpoint {token_endpoint} refused ({status}): {}",
                answer["error_description"]
                    .as_str()
                    .or(answer["error"].as_str())
                    .unwrap_or("no reason given")
            ));
        }
        let token = answer["access_token"]
            .as_str()
            .ok_or_else(|| format!("token endpoint {token_endpoint} sent no access_token"))?
            .to_owned();
        let until = answer["expires_in"]
            .as_u64()
            .map(|s| Instant::now() + Duration::from_secs(s).saturating_sub(EARLY));
        Ok(Cached { token, until })
    }
}

impl TokenProvider for ClientCredentials {
    fn token<'a>(
        &'a self,
        resource: &'a str,
        challenge: Option<&'a str>,
        stale: Option<&'a str>,
    ) -> crate::tool::BoxFuture<'a, Result<String, String>> {
        Box::pin(async move {
            let mut cached = self.cached.lock().await;
            if let Some(current) = cached.as_ref()
                && stale != Some(current.token.as_str())
                && current.until.is_none_or(|until| Instant::now() < until)
            {
                return Ok(current.token.clone());
            }
            let fresh = self.fetch(resource, challenge).await?;
            *cached = Some(fresh.clone());
            Ok(fresh.token)
        })
    }
}

impl<T: TokenProvider + ?Sized> TokenProvider for Arc<T> {
    fn token<'a>(
        &'a self,
        resource: &'a str,
        challenge: Option<&'a str>,
        stale: Option<&'a str>,
    ) -> crate::tool::BoxFuture<'a, Result<String, String>> {
        (**self).token(resource, challenge, stale)
    }
}

/// One `name="value"` parameter of a `WWW-Authenticate` challenge.
fn parameter(challenge: &str, name: &str) -> Option<String> {
    let start = challenge.find(&format!("{name}=\""))? + name.len() + 2;
    let end = challenge[start..].find('"')? + start;
    Some(challenge[start..end].to_owned())
}

fn same_issuer(a: &str, b: &str) -> bool {
    a.trim_end_matches('/') == b.trim_end_matches('/')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_metadata_url_comes_from_the_challenge_or_the_resource() {
        let challenge = "Bearer resource_metadata=\"http://h/.well-known/oauth-protected-resource/mcp\", scope=\"a b\"";
        assert_eq!(
            parameter(challenge, "resource_metadata").as_deref(),
            Some("http://h/.well-known/oauth-protected-resource/mcp")
        );
        assert_eq!(parameter(challenge, "scope").as_deref(), Some("a b"));
        assert_eq!(parameter(challenge, "error"), None);
        assert!(same_issuer("http://a/", "http://a"));
    }
}
