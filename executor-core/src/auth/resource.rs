//! `ResourceServer`: what an MCP or A2A server needs to be an OAuth 2.1 protected resource.

use std::fmt::Write as _;
use std::sync::Arc;
use std::time::Duration;

use serde_json::{Value, json};

use super::error::AuthError;
use super::fetch::{default_client, split_uri, well_known};
use super::jwks::{KeyCache, Source};
use super::principal::Principal;
use super::settings::{Introspection, Settings, Verified};
use super::token;

/// How long a fetched JWKS is used before it is fetched again (an unknown `kid` refreshes it
/// sooner; see [`ResourceServer::with_jwks_refresh`]).
pub const DEFAULT_JWKS_TTL: Duration = Duration::from_secs(300);

/// The shortest time between two fetches of the JWKS that an unknown `kid` triggers, so a
/// flood of tokens with made-up key ids cannot turn into a flood of fetches.
pub const DEFAULT_JWKS_MIN_REFRESH: Duration = Duration::from_secs(10);

/// The OAuth 2.1 resource-server side of a server (MCP authorization 2025-11-25/2026-07-28):
/// it publishes its protected-resource metadata (RFC 9728), checks bearer tokens (JWTs
/// against the authorization server's JWKS, or RFC 7662 introspection), refuses tokens issued
/// for another resource (RFC 8707 audience), and turns a good token into the call's
/// [`Principal`].
///
/// Off by default: a server checks tokens once it is given one
/// (`McpServer::with_oauth`). Fetching the JWKS or introspecting uses
/// [`reqwest`](https://docs.rs/reqwest) without TLS of its own; for `https` issuers enable
/// one of reqwest's TLS features in your crate (cargo unifies them) or pass a client with
/// [`with_http_client`](Self::with_http_client).
///
/// ```
/// use tool_executor::auth::ResourceServer;
///
/// let oauth = ResourceServer::new("https://notes.example.com/mcp")
///     .with_authorization_server("https://auth.example.com")
///     .with_jwks_uri("https://auth.example.com/jwks.json")
///     .with_scopes_supported(["notes:read", "notes:write"]);
/// assert_eq!(
///     oauth.metadata_url(),
///     "https://notes.example.com/.well-known/oauth-protected-resource/mcp"
/// );
/// assert_eq!(oauth.metadata()["authorization_servers"][0], "https://auth.example.com");
/// ```
#[derive(Clone, Debug)]
pub struct ResourceServer {
    pub(super) inner: Arc<Settings>,
}

impl ResourceServer {
    /// A resource server for `resource`, this server's canonical URI as clients address it
    /// (`https://host/mcp`): the audience its tokens must carry and the base of its metadata
    /// URL.
    #[must_use]
    pub fn new(resource: impl Into<String>) -> Self {
        Self {
            inner: Arc::new(Settings {
                resource: resource.into(),
                authorization_servers: Vec::new(),
                issuers: Vec::new(),
                audiences: Vec::new(),
                scopes_supported: Vec::new(),
                resource_name: None,
                leeway: 30,
                keys: None,
                introspection: None,
                client: default_client(),
                verified: Verified::default(),
            }),
        }
    }

    fn edit(self, f: impl FnOnce(&mut Settings)) -> Self {
        let mut settings = Arc::try_unwrap(self.inner).unwrap_or_else(|shared| Settings {
            resource: shared.resource.clone(),
            authorization_servers: shared.authorization_servers.clone(),
            issuers: shared.issuers.clone(),
            audiences: shared.audiences.clone(),
            scopes_supported: shared.scopes_supported.clone(),
            resource_name: shared.resource_name.clone(),
            leeway: shared.leeway,
            keys: shared.keys.as_ref().map(KeyCache::fresh_copy),
            introspection: shared.introspection.clone(),
            client: shared.client.clone(),
            verified: Verified::default(),
        });
        f(&mut settings);
        Self {
            inner: Arc::new(settings),
        }
    }

    /// An authorization server clients get tokens from (listed in the metadata); its issuer
    /// identifier is accepted as `iss` unless [`with_issuer`](Self::with_issuer) says
    /// otherwise.
    #[must_use]
    pub fn with_authorization_server(self, issuer: impl Into<String>) -> Self {
        let issuer = issuer.into();
        self.edit(|s| s.authorization_servers.push(issuer))
    }

    /// Accepts tokens whose `iss` is `issuer` (replacing the default, the authorization
    /// servers). Call again to accept several.
    #[must_use]
    pub fn with_issuer(self, issuer: impl Into<String>) -> Self {
        let issuer = issuer.into();
        self.edit(|s| s.issuers.push(issuer))
    }

    /// Accepts tokens whose `aud` contains `audience` (replacing the default, the resource
    /// URI). Call again to accept several.
    #[must_use]
    pub fn with_audience(self, audience: impl Into<String>) -> Self {
        let audience = audience.into();
        self.edit(|s| s.audiences.push(audience))
    }

    /// Checks JWTs against the keys at `uri` (the authorization server's `jwks_uri`), fetched
    /// on first use, kept [`DEFAULT_JWKS_TTL`] and fetched again when a token names a key id
    /// the set lacks (at most every [`DEFAULT_JWKS_MIN_REFRESH`]).
    #[must_use]
    pub fn with_jwks_uri(self, uri: impl Into<String>) -> Self {
        let source = Source::Uri(uri.into());
        let cache = KeyCache::new(source, DEFAULT_JWKS_TTL, DEFAULT_JWKS_MIN_REFRESH);
        self.edit(|s| s.keys = Some(cache))
    }

    /// Checks JWTs against the keys `issuer` publishes, found through its RFC 8414 metadata
    /// (`/.well-known/oauth-authorization-server`, then `OpenID` Connect discovery) on first
    /// use; also lists `issuer` as an authorization server. Otherwise as
    /// [`with_jwks_uri`](Self::with_jwks_uri).
    #[must_use]
    pub fn with_issuer_keys(self, issuer: impl Into<String>) -> Self {
        let issuer = issuer.into();
        let source = Source::Discover(issuer.clone());
        let cache = KeyCache::new(source, DEFAULT_JWKS_TTL, DEFAULT_JWKS_MIN_REFRESH);
        self.edit(|s| {
            if !s.authorization_servers.contains(&issuer) {
                s.authorization_servers.push(issuer);
            }
            s.keys = Some(cache);
        })
    }

    /// How long fetched keys are used, and the shortest time between two fetches an unknown
    /// key id triggers.
    #[must_use]
    pub fn with_jwks_refresh(self, ttl: Duration, min_refresh: Duration) -> Self {
        self.edit(|s| {
            if let Some(keys) = &mut s.keys {
                *keys = KeyCache::new(keys.source().clone(), ttl, min_refresh);
            }
        })
    }

    /// Checks tokens that are not JWTs (or every token, without a JWKS) by RFC 7662
    /// introspection at `endpoint`, authenticating as `client_id`/`client_secret` (HTTP
    /// Basic).
    #[must_use]
    pub fn with_introspection(
        self,
        endpoint: impl Into<String>,
        client_id: impl Into<String>,
        client_secret: impl Into<String>,
    ) -> Self {
        let introspection = Introspection {
            endpoint: endpoint.into(),
            client_id: client_id.into(),
            client_secret: client_secret.into(),
        };
        self.edit(|s| s.introspection = Some(introspection))
    }

    /// The scopes listed in the metadata (`scopes_supported`) and in a 401's `scope`.
    #[must_use]
    pub fn with_scopes_supported<I, S>(self, scopes: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        let scopes = scopes.into_iter().map(Into::into).collect();
        self.edit(|s| s.scopes_supported = scopes)
    }

    /// A human-readable name in the metadata (`resource_name`).
    #[must_use]
    pub fn with_resource_name(self, name: impl Into<String>) -> Self {
        let name = name.into();
        self.edit(|s| s.resource_name = Some(name))
    }

    /// Seconds of clock skew allowed on `exp` and `nbf` (default 30).
    #[must_use]
    pub fn with_leeway(self, seconds: u64) -> Self {
        self.edit(|s| s.leeway = seconds)
    }

    /// The HTTP client that fetches keys and introspects (one with TLS, a proxy, timeouts).
    #[must_use]
    pub fn with_http_client(self, client: reqwest::Client) -> Self {
        self.edit(|s| s.client = client)
    }

    /// This server's resource URI.
    #[must_use]
    pub fn resource(&self) -> &str {
        &self.inner.resource
    }

    /// The path of the metadata document on this server: `/.well-known/oauth-protected-resource`
    /// followed by the resource URI's path (RFC 9728 §3.1), `/.well-known/oauth-protected-resource/mcp`
    /// for `https://host/mcp`.
    #[must_use]
    pub fn metadata_path(&self) -> String {
        let (_, path) = split_uri(&self.inner.resource);
        format!("/.well-known/oauth-protected-resource{path}")
    }

    /// The absolute URL of the metadata document (what a 401 points clients to).
    #[must_use]
    pub fn metadata_url(&self) -> String {
        well_known(&self.inner.resource, "oauth-protected-resource")
    }

    /// The protected-resource metadata document (RFC 9728).
    #[must_use]
    pub fn metadata(&self) -> Value {
        let s = &self.inner;
        let mut doc = json!({
            "resource": s.resource,
            "authorization_servers": s.authorization_servers,
            "bearer_methods_supported": ["header"],
        });
        if !s.scopes_supported.is_empty() {
            doc["scopes_supported"] = json!(s.scopes_supported);
        }
        if let Some(name) = &s.resource_name {
            doc["resource_name"] = json!(name);
        }
        doc
    }

    /// Whether `path` (of a GET) asks for the metadata: the RFC 9728 path, or the bare
    /// `/.well-known/oauth-protected-resource` that clients also try.
    #[must_use]
    pub fn is_metadata_path(&self, path: &str) -> bool {
        path == self.metadata_path() || path == "/.well-known/oauth-protected-resource"
    }

    /// Checks the `Authorization` header's value and returns who is calling. A token that
    /// passed is remembered (a JWT until its `exp`, an introspected one for 30 s, at most
    /// 1,024 tokens), so a client's next request with it costs a lookup.
    ///
    /// # Errors
    /// [`AuthError`]: no or a malformed header, a token that fails a check (signature,
    /// expiry, issuer, audience), or keys that cannot be fetched.
    pub async fn authenticate(
        &self,
        authorization: Option<&str>,
    ) -> Result<Arc<Principal>, AuthError> {
        let Some(header) = authorization else {
            return Err(AuthError::Missing);
        };
        let Some(token) = bearer(header) else {
            return Err(AuthError::InvalidRequest(
                "the Authorization header is not `Bearer <token>`".to_owned(),
            ));
        };
        if let Some(principal) = self.inner.verified.get(token) {
            return Ok(principal);
        }
        let (principal, introspected) = token::check(&self.inner, token).await?;
        let principal = Arc::new(principal);
        self.inner.verified.insert(token, &principal, introspected);
        Ok(principal)
    }

    /// The status and `WWW-Authenticate` value that answer `error` (RFC 6750 §3, MCP
    /// authorization): 401 with `resource_metadata` (and `scope` when known) for a missing or
    /// bad token, 403 `insufficient_scope` naming the scopes needed, 503 when keys could not
    /// be fetched.
    #[must_use]
    pub fn challenge(&self, error: &AuthError) -> (u16, String) {
        let mut value = format!("Bearer resource_metadata=\"{}\"", self.metadata_url());
        let scope = match error {
            AuthError::InsufficientScope { needed } => Some(needed.join(" ")),
            _ if !self.inner.scopes_supported.is_empty() => {
                Some(self.inner.scopes_supported.join(" "))
            }
            _ => None,
        };
        if let Some(code) = error.oauth_code() {
            let description = quoted(&error.to_string());
            let _ = write!(
                value,
                ", error=\"{code}\", error_description=\"{description}\""
            );
        }
        if let Some(scope) = scope {
            let _ = write!(value, ", scope=\"{}\"", quoted(&scope));
        }
        (error.status(), value)
    }
}

/// The token of a `Bearer` header (the scheme in any case, RFC 6750 §2.1).
fn bearer(header: &str) -> Option<&str> {
    let (scheme, token) = header.trim().split_once(' ')?;
    let token = token.trim();
    (scheme.eq_ignore_ascii_case("bearer") && !token.is_empty() && !token.contains(' '))
        .then_some(token)
}

/// A value safe inside a quoted-string: no quotes or backslashes.
fn quoted(text: &str) -> String {
    text.replace(['"', '\\'], "'")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_metadata_path_follows_the_resource_path() {
        let with_path = ResourceServer::new("http://127.0.0.1:8080/mcp");
        assert_eq!(
            with_path.metadata_path(),
            "/.well-known/oauth-protected-resource/mcp"
        );
        assert_eq!(
            with_path.metadata_url(),
            "http://127.0.0.1:8080/.well-known/oauth-protected-resource/mcp"
        );
        assert!(with_path.is_metadata_path("/.well-known/oauth-protected-resource"));
        let root = ResourceServer::new("https://agents.example.com/");
        assert_eq!(
            root.metadata_path(),
            "/.well-known/oauth-protected-resource"
        );
    }

    #[test]
    fn bearer_tokens_are_read_in_any_case_of_the_scheme() {
        assert_eq!(bearer("Bearer abc"), Some("abc"));
        assert_eq!(bearer("bearer  abc "), Some("abc"));
        assert_eq!(bearer("Basic abc"), None);
        assert_eq!(bearer("Bearer"), None);
        assert_eq!(bearer("Bearer a b"), None);
    }

    #[test]
    fn challenges_name_the_metadata_the_error_and_the_scope() {
        let oauth = ResourceServer::new("http://h/mcp").with_scopes_supported(["a", "b"]);
        let (status, value) = oauth.challenge(&AuthError::Missing);
        assert_eq!(status, 401);
        assert_eq!(
            value,
            "Bearer resource_metadata=\"http://h/.well-known/oauth-protected-resource/mcp\", \
             scope=\"a b\""
        );
        let (status, value) = oauth.challenge(&AuthError::InsufficientScope {
            needed: vec!["notes:write".to_owned()],
        });
        assert_eq!(status, 403);
        assert!(
            value.ends_with(", error=\"insufficient_scope\", error_description=\"the token lacks scope notes:write\", scope=\"notes:write\""),
            "{value}"
        );
        let (status, value) = oauth.challenge(&AuthError::InvalidToken("expired".to_owned()));
        assert_eq!(status, 401);
        assert!(value.contains("error=\"invalid_token\""), "{value}");
    }
}
