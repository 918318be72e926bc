//! The client side: tokens for a protected MCP server, found the way the MCP authorization
//! spec says (the server's RFC 9728 metadata, then its authorization server's RFC 8414
//! metadata) and obtained by the client-credentials grant, or from a provider of your own.

use std::sync::Arc;
use std::time::Duration;

use serde_json::Value;
use tokio::sync::Mutex;
use tokio::time::Instant;

use super::discovery::discover;
use super::fetch::{ClientAuth, default_client, post_form};

/// A token is fetched again this long before it expires.
const EARLY: Duration = Duration::from_secs(30);

/// Where a client gets bearer tokens for a server: [`ClientCredentials`], or your own (an
/// interactive authorization-code flow, a token from a secrets store).
///
/// `token` is asked before the first request (unless [`waits_for_challenge`] says to send it
/// without one) and again, with `stale` set to the token the server refused, after a 401 or a
/// 403 `insufficient_scope`: a provider then fetches a new one rather than answering from its
/// cache. `challenge` is the server's `WWW-Authenticate` value, when there is one: it names
/// the metadata to discover from and, on a 403, the scopes the call needs (step-up).
///
/// [`waits_for_challenge`]: TokenProvider::waits_for_challenge
pub trait TokenProvider: Send + Sync + 'static {
    /// A bearer token for `resource` (the server's URL).
    fn token<'a>(
        &'a self,
        resource: &'a str,
        challenge: Option<&'a str>,
        stale: Option<&'a str>,
    ) -> crate::tool::BoxFuture<'a, Result<String, String>>;

    /// Whether the first request goes out without a token, so that the server's 401 names the
    /// scopes and metadata before the provider asks anyone (an interactive flow asks its user
    /// once, for the right scopes). `false` by default: a machine credential is fetched up
    /// front.
    fn waits_for_challenge(&self) -> bool {
        false
    }
}

/// The OAuth client-credentials grant (machine to machine), with discovery: on first use (or
/// the server's 401) it reads the server's protected-resource metadata (the challenge's
/// `resource_metadata`, else the RFC 9728 well-known paths), then its authorization server's
/// metadata (RFC 8414, then `OpenID` discovery), and asks the token endpoint for a token for
/// the server's resource (RFC 8707), authenticated with HTTP Basic ([`new`](Self::new)) or a
/// signed JWT assertion ([`private_key_jwt`](Self::private_key_jwt), RFC 7523). The token
/// is kept until 30 s before it expires.
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
    secret: Secret,
    scope: Option<String>,
    issuer: Option<String>,
    http: reqwest::Client,
    cached: Mutex<Option<Granted>>,
}

/// How the client proves who it is.
enum Secret {
    /// `client_secret_basic`.
    Shared(String),
    /// `private_key_jwt`: an assertion signed with this key.
    Key(jsonwebtoken::EncodingKey, jsonwebtoken::Algorithm),
}

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Shared(_) => f.write_str("Shared(..)"),
            Self::Key(_, algorithm) => write!(f, "Key({algorithm:?})"),
        }
    }
}

/// A private key [`ClientCredentials::private_key_jwt`] cannot sign with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InvalidKey(String);

impl std::fmt::Display for InvalidKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "cannot sign client assertions: {}", self.0)
    }
}

impl std::error::Error for InvalidKey {}

impl ClientCredentials {
    /// The client's id and secret at its authorization server.
    #[must_use]
    pub fn new(client_id: impl Into<String>, client_secret: impl Into<String>) -> Self {
        Self::with_secret(client_id.into(), Secret::Shared(client_secret.into()))
    }

    /// A client that authenticates with a JWT assertion signed by its private key
    /// (`private_key_jwt`, RFC 7523 §2.2): `iss` and `sub` the client id, `aud` the
    /// authorization server's issuer, a fresh `jti`, valid for a minute. `private_key_pem` is
    /// a PKCS#8 PEM key; `algorithm` one of `ES256`, `ES384`, `RS256`, `RS384`, `RS512`,
    /// `PS256`, `PS384`, `PS512`, `EdDSA`.
    ///
    /// # Errors
    /// [`InvalidKey`] for an unknown algorithm or a key that is not a PEM key of its kind.
    pub fn private_key_jwt(
        client_id: impl Into<String>,
        private_key_pem: &str,
        algorithm: &str,
    ) -> Result<Self, InvalidKey> {
        use jsonwebtoken::{Algorithm, EncodingKey};
        let algorithm: Algorithm = algorithm
            .parse()
            .map_err(|_| InvalidKey(format!("unknown algorithm {algorithm}")))?;
        let pem = private_key_pem.as_bytes();
        let key = match algorithm {
            Algorithm::ES256 | Algorithm::ES384 => EncodingKey::from_ec_pem(pem),
            Algorithm::RS256
            | Algorithm::RS384
            | Algorithm::RS512
            | Algorithm::PS256
            | Algorithm::PS384
            | Algorithm::PS512 => EncodingKey::from_rsa_pem(pem),
            Algorithm::EdDSA => EncodingKey::from_ed_pem(pem),
            _ => {
                return Err(InvalidKey(format!(
                    "{algorithm:?} is not a private key's algorithm"
                )));
            }
        }
        .map_err(|e| InvalidKey(e.to_string()))?;
        Ok(Self::with_secret(
            client_id.into(),
            Secret::Key(key, algorithm),
        ))
    }

    fn with_secret(client_id: String, secret: Secret) -> Self {
        Self {
            client_id,
            secret,
            scope: None,
            issuer: None,
            http: default_client(),
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

    async fn fetch(&self, resource: &str, challenge: Option<&str>) -> Result<Granted, String> {
        let found = discover(&self.http, resource, challenge, self.issuer.as_deref()).await?;
        let token_endpoint = found.endpoint("token_endpoint")?;
        let mut form = vec![
            ("grant_type", "client_credentials"),
            ("resource", found.resource.as_str()),
        ];
        if let Some(scope) = &self.scope {
            form.push(("scope", scope.as_str()));
        }
        let assertion;
        let auth = match &self.secret {
            Secret::Shared(secret) => ClientAuth::Basic(&self.client_id, secret),
            Secret::Key(key, algorithm) => {
                assertion = self.assertion(key, *algorithm, &found.issuer)?;
                form.push(("client_assertion_type", JWT_BEARER));
                form.push(("client_assertion", assertion.as_str()));
                ClientAuth::Assertion
            }
        };
        request_token(&self.http, token_endpoint, auth, &form).await
    }
}

impl ClientCredentials {
    /// A signed client assertion for `audience` (RFC 7523 §3).
    fn assertion(
        &self,
        key: &jsonwebtoken::EncodingKey,
        algorithm: jsonwebtoken::Algorithm,
        audience: &str,
    ) -> Result<String, String> {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        let mut jti = [0u8; 16];
        getrandom::fill(&mut jti).map_err(|e| format!("no randomness for a jti: {e}"))?;
        let claims = serde_json::json!({
            "iss": self.client_id,
            "sub": self.client_id,
            "aud": audience,
            "iat": now,
            "exp": now + 60,
            "jti": crate::base64::encode_url(&jti),
        });
        jsonwebtoken::encode(&jsonwebtoken::Header::new(algorithm), &claims, key)
            .map_err(|e| format!("cannot sign the client assertion: {e}"))
    }
}

/// RFC 7523 §2.2's `client_assertion_type`.
const JWT_BEARER: &str = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer";

/// What a token endpoint granted.
#[derive(Debug, Clone)]
pub(super) struct Granted {
    pub(super) token: String,
    /// When to fetch again (30 s before `expires_in` runs out).
    pub(super) until: Option<Instant>,
    pub(super) refresh: Option<String>,
}

impl Granted {
    /// The token of `granted`, unless there is none, it is the one the server refused
    /// (`stale`), or it is about to expire.
    pub(super) fn usable(granted: Option<&Self>, stale: Option<&str>) -> Option<String> {
        granted
            .filter(|g| stale != Some(g.token.as_str()))
            .filter(|g| g.until.is_none_or(|until| Instant::now() < until))
            .map(|g| g.token.clone())
    }
}

/// One token request to `endpoint`; a refusal (any non-2xx or an `error`) names the endpoint
/// and the authorization server's reason.
pub(super) async fn request_token(
    http: &reqwest::Client,
    endpoint: &str,
    auth: ClientAuth<'_>,
    form: &[(&str, &str)],
) -> Result<Granted, String> {
    let (status, body) = post_form(http, endpoint, auth, form)
        .await
        .map_err(|e| format!("token endpoint {endpoint}: {e}"))?;
    let answer: Value = serde_json::from_slice(&body)
        .map_err(|e| format!("token endpoint {endpoint} ({status}): {e}"))?;
    if !status.is_success() || answer.get("error").is_some() {
        return Err(format!(
            "token endpoint {endpoint} refused ({status}): {}",
            answer["error_description"]
                .as_str()
                .or(answer["error"].as_str())
                .unwrap_or("no reason given")
        ));
    }
    let token = answer["access_token"]
        .as_str()
        .ok_or_else(|| format!("token endpoint {endpoint} sent no access_token"))?
        .to_owned();
    let until = answer["expires_in"]
        .as_u64()
        .map(|s| Instant::now() + Duration::from_secs(s).saturating_sub(EARLY));
    Ok(Granted {
        token,
        until,
        refresh: answer["refresh_token"].as_str().map(str::to_owned),
    })
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
            if let Some(token) = Granted::usable(cached.as_ref(), stale) {
                return Ok(token);
            }
            let fresh = self.fetch(resource, challenge).await?;
            let token = fresh.token.clone();
            *cached = Some(fresh);
            Ok(token)
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

    fn waits_for_challenge(&self) -> bool {
        (**self).waits_for_challenge()
    }
}
