//! What a [`ResourceServer`](super::ResourceServer) was configured with, shared by its checks.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use tokio::time::Instant;

use super::jwks::KeyCache;
use super::principal::Principal;

/// How many verified tokens are remembered (past it, expired ones are dropped, then all).
const VERIFIED_CAPACITY: usize = 1024;

/// The longest a token checked by introspection is trusted without asking again (it may be
/// revoked); a JWT is trusted until its `exp`.
const INTROSPECTED_FOR: Duration = Duration::from_secs(30);

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
    /// Tokens already checked: a client sends the same token on every request, and checking
    /// a signature costs far more than a lookup.
    pub(super) verified: Verified,
}

/// Tokens checked, with whom they stand for and until when.
#[derive(Debug, Default)]
pub(super) struct Verified(Mutex<HashMap<String, (Arc<Principal>, Instant)>>);

impl Verified {
    pub(super) fn get(&self, token: &str) -> Option<Arc<Principal>> {
        let map = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        let (principal, until) = map.get(token)?;
        (Instant::now() < *until).then(|| Arc::clone(principal))
    }

    /// Remembers `token` until its `exp` claim (a JWT) or for a short while (introspected).
    pub(super) fn insert(&self, token: &str, principal: &Arc<Principal>, introspected: bool) {
        let now_epoch = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        let exp = principal
            .claim("exp")
            .and_then(serde_json::Value::as_u64)
            .unwrap_or(now_epoch);
        let mut lifetime = Duration::from_secs(exp.saturating_sub(now_epoch));
        if introspected {
            lifetime = lifetime.min(INTROSPECTED_FOR);
        }
        if lifetime.is_zero() {
            return;
        }
        let now = Instant::now();
        let mut map = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        if map.len() >= VERIFIED_CAPACITY {
            map.retain(|_, (_, until)| *until > now);
            if map.len() >= VERIFIED_CAPACITY {
                map.clear();
            }
        }
        map.insert(token.to_owned(), (Arc::clone(principal), now + lifetime));
    }
}

/// RFC 7662 token introspection: where, and the resource server's own credentials.
#[derive(Debug, Clone)]
pub(super) struct Introspection {
    pub(super) endpoint: String,
    pub(super) client_id: String,
    pub(super) client_secret: String,
}
