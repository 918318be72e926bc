//! What a [`ResourceServer`](super::ResourceServer) was configured with, shared by its checks.

use super::jwks::KeyCache;

#[derive(Debug)]
pub(super) struct Settings {
    /// This server's canonical URI (RFC 8707 `resource`), the default accepted audience.
    pub(super) resource: String,
    pub(super) authorization_servers: Vec<String>,
    /// Accepted `iss` values (default: the authorization servers).
    pub(super) issuers: Vec<String>,
    /// Accepted `aud` values (default: the resource).
    pub(super) audiences: Vec<String>,
    pub(super) scopes_supported: Vec<String>,
    pub(super) resource_name: Option<String>,
    /// Seconds of clock skew allowed on `exp` and `nbf`.
    pub(super) leeway: u64,
    pub(super) keys: Option<KeyCache>,
    pub(super) introspection: Option<Introspection>,
    pub(super) client: reqwest::Client,
}

/// RFC 7662 token introspection: where, and the resource server's own credentials.
#[derive(Debug, Clone)]
pub(super) struct Introspection {
    pub(super) endpoint: String,
    pub(super) client_id: String,
    pub(super) client_secret: String,
}
