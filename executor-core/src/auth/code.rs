//! The OAuth 2.1 authorization-code grant with PKCE, as an MCP client runs it: discovery from
//! the server's challenge, a client id (pre-registered, a client ID metadata document, or
//! dynamic registration), the user's consent through a [`UserAgent`], the code exchanged for
//! a token, refreshed before it expires, and authorized again with more scopes when the server
//! answers `insufficient_scope`.

use std::fmt;
use std::sync::Arc;

use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use tokio::sync::Mutex;

use super::client::{Granted, TokenProvider, request_token};
use super::discovery::{Discovered, discover, parameter};
use super::fetch::{ClientAuth, default_client, form_encode, post_json};
use crate::base64::encode_url as base64url;
use crate::tool::BoxFuture;

/// Where the user consents: given the authorization URL, it returns the URL the authorization
/// server redirected the user's browser to (the client's `redirect_uri` with `code` and
/// `state`). A desktop app opens a browser and listens on its loopback redirect URI; a test
/// against a server that approves on its own follows the redirect with an HTTP client.
///
/// Any `Fn(String) -> impl Future<Output = Result<String, String>>` is one.
pub trait UserAgent: Send + Sync + 'static {
    /// Sends the user to `authorization_url`; the redirect URL the server answered with.
    fn authorize(&self, authorization_url: String) -> BoxFuture<'_, Result<String, String>>;
}

impl<F, Fut> UserAgent for F
where
    F: Fn(String) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<String, String>> + Send + 'static,
{
    fn authorize(&self, authorization_url: String) -> BoxFuture<'_, Result<String, String>> {
        Box::pin(self(authorization_url))
    }
}

/// How the client is known to the authorization server.
#[derive(Debug, Clone)]
enum Registration {
    /// Registered beforehand: an id and, for a confidential client, a secret.
    Preregistered { id: String, secret: Option<String> },
    /// Dynamic client registration (RFC 7591) at the server's `registration_endpoint`, or a
    /// client ID metadata document's URL as the id where the server supports those.
    Dynamic { metadata_document: Option<String> },
}

/// A client id, with how it authenticates at the token endpoint.
#[derive(Debug, Clone)]
struct Client {
    issuer: String,
    id: String,
    secret: Option<String>,
    method: Method,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Method {
    Basic,
    Post,
    None,
}

impl Method {
    fn parse(name: &str) -> Option<Self> {
        match name {
            "client_secret_basic" => Some(Self::Basic),
            "client_secret_post" => Some(Self::Post),
            "none" => Some(Self::None),
            _ => None,
        }
    }

    const fn name(self) -> &'static str {
        match self {
            Self::Basic => "client_secret_basic",
            Self::Post => "client_secret_post",
            Self::None => "none",
        }
    }
}

impl Client {
    fn auth(&self) -> ClientAuth<'_> {
        match (self.method, self.secret.as_deref()) {
            (Method::Basic, Some(secret)) => ClientAuth::Basic(&self.id, secret),
            (Method::Post, Some(secret)) => ClientAuth::Post(&self.id, secret),
            _ => ClientAuth::None(&self.id),
        }
    }
}

#[derive(Default)]
struct State {
    found: Option<Discovered>,
    client: Option<Client>,
    granted: Option<Granted>,
    /// The scopes the current token was asked for.
    scope: Option<String>,
}

/// The authorization-code grant with PKCE (S256) for an MCP server over HTTP, as the MCP
/// authorization spec describes it. The first request goes out without a token; on the 401 it
/// discovers the authorization server from the challenge (or the well-known paths), gets a
/// client id, sends the user through [`UserAgent`] with the scopes the challenge names (else
/// the server's `scopes_supported`, else none), checks the returned `state`, exchanges the code
/// (with the RFC 8707 `resource`), keeps the token until 30 s before it expires, then uses the
/// refresh token. A 403 `insufficient_scope` authorizes again with the scopes it names.
///
/// ```
/// use tool_executor::auth::AuthorizationCode;
///
/// let tokens = AuthorizationCode::new("http://127.0.0.1:8765/callback", |url: String| async move {
///     // Open `url` in the user's browser and wait for the redirect on 127.0.0.1:8765.
///     Err::<String, String>(format!("open {url} in a browser"))
/// })
/// .with_client_name("notes-assistant");
/// # let _ = tokens;
/// ```
pub struct AuthorizationCode {
    redirect_uri: String,
    client_name: String,
    registration: Registration,
    scope: Option<String>,
    issuer: Option<String>,
    user_agent: Arc<dyn UserAgent>,
    http: reqwest::Client,
    state: Mutex<State>,
}

impl fmt::Debug for AuthorizationCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AuthorizationCode")
            .field("redirect_uri", &self.redirect_uri)
            .field("client_name", &self.client_name)
            .field("scope", &self.scope)
            .field("issuer", &self.issuer)
            .finish_non_exhaustive()
    }
}

impl AuthorizationCode {
    /// The flow for a client whose redirect URI is `redirect_uri`, sending its user through
    /// `user_agent`. It registers itself dynamically unless told otherwise.
    #[must_use]
    pub fn new(redirect_uri: impl Into<String>, user_agent: impl UserAgent) -> Self {
        Self {
            redirect_uri: redirect_uri.into(),
            client_name: "tool-executor".to_owned(),
            registration: Registration::Dynamic {
                metadata_document: None,
            },
            scope: None,
            issuer: None,
            user_agent: Arc::new(user_agent),
            http: default_client(),
            state: Mutex::new(State::default()),
        }
    }

    /// The `client_name` sent with a dynamic registration.
    #[must_use]
    pub fn with_client_name(mut self, name: impl Into<String>) -> Self {
        self.client_name = name.into();
        self
    }

    /// A client registered beforehand (no dynamic registration): its id and, for a
    /// confidential client, its secret (sent as the authorization server's metadata prefers:
    /// HTTP Basic, else in the form).
    #[must_use]
    pub fn with_client(mut self, id: impl Into<String>, secret: Option<String>) -> Self {
        self.registration = Registration::Preregistered {
            id: id.into(),
            secret,
        };
        self
    }

    /// The HTTPS URL of this client's metadata document, used as its client id where the
    /// authorization server says `client_id_metadata_document_supported` (no registration
    /// round trip); elsewhere the client registers dynamically.
    #[must_use]
    pub fn with_client_metadata_url(mut self, url: impl Into<String>) -> Self {
        self.registration = Registration::Dynamic {
            metadata_document: Some(url.into()),
        };
        self
    }

    /// Asks for these scopes (space-separated) instead of choosing them from the challenge or
    /// the server's metadata.
    #[must_use]
    pub fn with_scope(mut self, scope: impl Into<String>) -> Self {
        self.scope = Some(scope.into());
        self
    }

    /// Trusts only this authorization server: a server whose metadata names another one is
    /// refused before the user is sent anywhere.
    #[must_use]
    pub fn with_issuer(mut self, issuer: impl Into<String>) -> Self {
        self.issuer = Some(issuer.into());
        self
    }

    /// The HTTP client for discovery, registration and the token endpoint. It must not follow
    /// redirects to other hosts with credentials; the default follows none.
    #[must_use]
    pub fn with_http_client(mut self, http: reqwest::Client) -> Self {
        self.http = http;
        self
    }

    async fn fetch(
        &self,
        state: &mut State,
        server: &str,
        challenge: Option<&str>,
        refused: bool,
    ) -> Result<String, String> {
        // A refresh answers an expired token; a token the server refused for its scopes needs
        // the user again (step-up).
        let step_up = refused
            && challenge
                .and_then(|c| parameter(c, "error"))
                .is_some_and(|e| e == "insufficient_scope");
        if !step_up
            && let (Some(found), Some(client), Some(refresh)) = (
                state.found.as_ref(),
                state.client.as_ref(),
                state.granted.as_ref().and_then(|g| g.refresh.clone()),
            )
        {
            let endpoint = found.endpoint("token_endpoint")?;
            let form = [
                ("grant_type", "refresh_token"),
                ("refresh_token", refresh.as_str()),
                ("resource", found.resource.as_str()),
            ];
            if let Ok(mut granted) = request_token(&self.http, endpoint, client.auth(), &form).await
            {
                granted.refresh = granted.refresh.or(Some(refresh));
                let token = granted.token.clone();
                state.granted = Some(granted);
                return Ok(token);
            }
        }
        if challenge.is_some() || state.found.is_none() {
            state.found =
                Some(discover(&self.http, server, challenge, self.issuer.as_deref()).await?);
        }
        let found = state.found.clone().ok_or("discovery found nothing")?;
        let scope = self
            .scope
            .clone()
            .or_else(|| challenge.and_then(|c| parameter(c, "scope")))
            .or_else(|| found.scopes_supported.clone())
            .filter(|s| !s.is_empty());
        let client = match state.client.take() {
            Some(client) if client.issuer == found.issuer => client,
            _ => self.register(&found).await?,
        };
        let result = self.authorize(&found, &client, scope.as_deref()).await;
        state.client = Some(client);
        let granted = result?;
        let token = granted.token.clone();
        state.granted = Some(granted);
        state.scope = scope;
        Ok(token)
    }

    /// The client id to use at `found`'s authorization server.
    async fn register(&self, found: &Discovered) -> Result<Client, String> {
        let supported: Vec<Method> = found.metadata["token_endpoint_auth_methods_supported"]
            .as_array()
            // RFC 8414 §2: absent means `client_secret_basic`.
            .map_or_else(
                || vec![Method::Basic],
                |list| {
                    list.iter()
                        .filter_map(Value::as_str)
                        .filter_map(Method::parse)
                        .collect()
                },
            );
        let issuer = found.issuer.clone();
        match &self.registration {
            Registration::Preregistered { id, secret } => {
                let method = match secret {
                    None => Method::None,
                    Some(_) if supported.contains(&Method::Basic) => Method::Basic,
                    Some(_) if supported.contains(&Method::Post) => Method::Post,
                    Some(_) => Method::Basic,
                };
                Ok(Client {
                    issuer,
                    id: id.clone(),
                    secret: secret.clone(),
                    method,
                })
            }
            Registration::Dynamic {
                metadata_document: Some(url),
            } if found.metadata["client_id_metadata_document_supported"] == json!(true) => {
                Ok(Client {
                    issuer,
                    id: url.clone(),
                    secret: None,
                    method: Method::None,
                })
            }
            Registration::Dynamic { .. } => {
                let endpoint = found.endpoint("registration_endpoint").map_err(|_| {
                    format!(
                        "{} offers no dynamic client registration: configure a client id \
                         (`with_client`)",
                        found.issuer
                    )
                })?;
                let wanted = [Method::Basic, Method::Post, Method::None]
                    .into_iter()
                    .find(|m| supported.contains(m))
                    .unwrap_or(Method::None);
                let request = json!({
                    "client_name": self.client_name,
                    "redirect_uris": [self.redirect_uri],
                    "grant_types": ["authorization_code", "refresh_token"],
                    "response_types": ["code"],
                    "token_endpoint_auth_method": wanted.name(),
                });
                let (status, answer) = post_json(&self.http, endpoint, &request).await?;
                let id = answer["client_id"].as_str().filter(|_| status.is_success());
                let id = id.ok_or_else(|| {
                    format!(
                        "registration at {endpoint} refused ({status}): {}",
                        answer["error_description"]
                            .as_str()
                            .or(answer["error"].as_str())
                            .unwrap_or("no client_id in the answer")
                    )
                })?;
                let secret = answer["client_secret"].as_str().map(str::to_owned);
                let method = answer["token_endpoint_auth_method"]
                    .as_str()
                    .and_then(Method::parse)
                    .unwrap_or(if secret.is_some() {
                        wanted
                    } else {
                        Method::None
                    });
                Ok(Client {
                    issuer,
                    id: id.to_owned(),
                    secret,
                    method,
                })
            }
        }
    }

    /// The user's consent for `scope`, and the code exchanged for a token.
    async fn authorize(
        &self,
        found: &Discovered,
        client: &Client,
        scope: Option<&str>,
    ) -> Result<Granted, String> {
        // The MCP spec: PKCE is required, and a server that does not say it supports S256
        // is not used.
        let s256 = found.metadata["code_challenge_methods_supported"]
            .as_array()
            .is_some_and(|methods| methods.iter().any(|m| m == "S256"));
        if !s256 {
            return Err(format!(
                "{} does not list S256 in code_challenge_methods_supported; PKCE is required",
                found.issuer
            ));
        }
        let endpoint = found.endpoint("authorization_endpoint")?;
        let verifier = base64url(&random::<32>()?);
        let challenge = base64url(&Sha256::digest(verifier.as_bytes()));
        let state = base64url(&random::<16>()?);
        let mut url = format!(
            "{endpoint}{}response_type=code&client_id={}&redirect_uri={}&code_challenge={challenge}\
             &code_challenge_method=S256&state={state}&resource={}",
            if endpoint.contains('?') { '&' } else { '?' },
            form_encode(&client.id),
            form_encode(&self.redirect_uri),
            form_encode(&found.resource),
        );
        if let Some(scope) = scope {
            url.push_str("&scope=");
            url.push_str(&form_encode(scope));
        }
        let redirected = self.user_agent.authorize(url).await?;
        if let Some(error) = query_parameter(&redirected, "error") {
            return Err(format!(
                "{} refused the authorization: {error} {}",
                found.issuer,
                query_parameter(&redirected, "error_description").unwrap_or_default()
            ));
        }
        if query_parameter(&redirected, "state").as_deref() != Some(state.as_str()) {
            return Err("the authorization redirect's state does not match the request's".into());
        }
        let code = query_parameter(&redirected, "code")
            .ok_or("the authorization redirect carries no code")?;
        let token_endpoint = found.endpoint("token_endpoint")?;
        let form = [
            ("grant_type", "authorization_code"),
            ("code", code.as_str()),
            ("redirect_uri", self.redirect_uri.as_str()),
            ("code_verifier", verifier.as_str()),
            ("resource", found.resource.as_str()),
        ];
        request_token(&self.http, token_endpoint, client.auth(), &form).await
    }
}

impl TokenProvider for AuthorizationCode {
    fn token<'a>(
        &'a self,
        resource: &'a str,
        challenge: Option<&'a str>,
        stale: Option<&'a str>,
    ) -> BoxFuture<'a, Result<String, String>> {
        Box::pin(async move {
            let mut held = self.state.lock().await;
            if let Some(token) = Granted::usable(held.granted.as_ref(), stale) {
                return Ok(token);
            }
            self.fetch(&mut held, resource, challenge, stale.is_some())
                .await
        })
    }

    fn waits_for_challenge(&self) -> bool {
        true
    }
}

/// `N` bytes from the operating system's generator.
fn random<const N: usize>() -> Result<[u8; N], String> {
    let mut bytes = [0; N];
    getrandom::fill(&mut bytes).map_err(|e| format!("no randomness for PKCE: {e}"))?;
    Ok(bytes)
}

/// The percent-decoded value of `name` in `url`'s query.
fn query_parameter(url: &str, name: &str) -> Option<String> {
    let query = url.split_once('?')?.1;
    let query = query.split('#').next().unwrap_or_default();
    query.split('&').find_map(|pair| {
        let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
        (decode(key) == name).then(|| decode(value))
    })
}

fn decode(text: &str) -> String {
    let hex = |byte: u8| char::from(byte).to_digit(16);
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let high = bytes.get(i + 1).copied().and_then(hex);
        let low = bytes.get(i + 2).copied().and_then(hex);
        match (bytes[i], high, low) {
            (b'%', Some(high), Some(low)) => {
                out.push(u8::try_from(high * 16 + low).unwrap_or(b'?'));
                i += 3;
                continue;
            }
            (b'+', ..) => out.push(b' '),
            (byte, ..) => out.push(byte),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn redirect_query_parameters_are_decoded() {
        let url = "http://localhost:3000/callback?code=a%2Fb+c&state=xyz#frag";
        assert_eq!(query_parameter(url, "code").as_deref(), Some("a/b c"));
        assert_eq!(query_parameter(url, "state").as_deref(), Some("xyz"));
        assert_eq!(query_parameter(url, "error"), None);
        assert_eq!(query_parameter("http://h/cb", "code"), None);
        assert_eq!(decode("100%"), "100%");
        assert_eq!(decode("%4"), "%4");
        assert_eq!(decode("%é%C3%A9"), "%éé");
    }

    #[test]
    fn the_s256_challenge_is_rfc_7636s() {
        // RFC 7636 appendix B.
        let verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
        assert_eq!(
            base64url(&Sha256::digest(verifier.as_bytes())),
            "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
        );
    }
}
