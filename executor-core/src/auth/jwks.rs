//! The authorization server's signing keys: fetched, cached, refreshed on an unknown key id.

use std::time::Duration;

use jsonwebtoken::DecodingKey;
use jsonwebtoken::jwk::{Jwk, JwkSet};
use tokio::sync::Mutex;
use tokio::time::Instant;

use super::error::AuthError;
use super::fetch::{get_json, issuer_metadata};

/// A JWKS and when it was fetched. One fetch at a time (the lock is held across it), so a
/// burst of tokens with a new key id costs one fetch.
#[derive(Debug)]
pub(super) struct KeyCache {
    source: Source,
    ttl: Duration,
    min_refresh: Duration,
    state: Mutex<State>,
}

/// Where the keys are: a known `jwks_uri`, or the one an issuer's metadata names.
#[derive(Debug, Clone)]
pub(super) enum Source {
    Uri(String),
    /// An issuer whose RFC 8414 metadata (or `OpenID` configuration) names the `jwks_uri`.
    Discover(String),
}

#[derive(Debug, Default)]
struct State {
    /// The `jwks_uri`, once known.
    uri: Option<String>,
    fetched: Option<Fetched>,
}

#[derive(Debug)]
struct Fetched {
    keys: JwkSet,
    at: Instant,
}

impl KeyCache {
    pub(super) fn new(source: Source, ttl: Duration, min_refresh: Duration) -> Self {
        Self {
            source,
            ttl,
            min_refresh,
            state: Mutex::new(State::default()),
        }
    }

    /// The same settings with nothing fetched (a builder's copy).
    pub(super) fn fresh_copy(&self) -> Self {
        Self::new(self.source.clone(), self.ttl, self.min_refresh)
    }

    pub(super) fn source(&self) -> &Source {
        &self.source
    }

    /// The key for a token's `kid` (or, without one, the set's only signing key): from the
    /// cache while it is fresh and has it; otherwise fetched again, unless the last fetch was
    /// under `min_refresh` ago.
    pub(super) async fn key(
        &self,
        client: &reqwest::Client,
        kid: Option<&str>,
    ) -> Result<(DecodingKey, Option<jsonwebtoken::Algorithm>), AuthError> {
        let mut state = self.state.lock().await;
        if let Some(fetched) = state.fetched.as_ref()
            && fetched.at.elapsed() < self.ttl
            && let Some(jwk) = pick(&fetched.keys, kid)
        {
            return decoding_key(jwk);
        }
        let may_fetch = state
            .fetched
            .as_ref()
            .is_none_or(|fetched| fetched.at.elapsed() >= self.min_refresh);
        if may_fetch {
            let uri = match (&state.uri, &self.source) {
                (Some(uri), _) | (None, Source::Uri(uri)) => uri.clone(),
                (None, Source::Discover(issuer)) => issuer_metadata(client, issuer, "jwks_uri")
                    .await
                    .map_err(AuthError::Unavailable)?,
            };
            let keys = fetch(client, &uri).await?;
            state.uri = Some(uri);
            state.fetched = Some(Fetched {
                keys,
                at: Instant::now(),
            });
        }
        let fetched = state.fetched.as_ref().expect("fetched above or before");
        match pick(&fetched.keys, kid) {
            Some(jwk) => decoding_key(jwk),
            None => Err(AuthError::InvalidToken(match kid {
                Some(kid) => format!(
                    "the token is signed with key `{kid}`, which the issuer does not publish"
                ),
                None => {
                    "the token names no key (`kid`) and the issuer publishes several".to_owned()
                }
            })),
        }
    }
}

/// The key a token names, or the only key of the set when it names none.
fn pick<'a>(keys: &'a JwkSet, kid: Option<&str>) -> Option<&'a Jwk> {
    match kid {
        Some(kid) => keys.find(kid),
        None => match keys.keys.as_slice() {
            [only] => Some(only),
            _ => None,
        },
    }
}

fn decoding_key(jwk: &Jwk) -> Result<(DecodingKey, Option<jsonwebtoken::Algorithm>), AuthError> {
    let key = DecodingKey::from_jwk(jwk)
        .map_err(|e| AuthError::Unavailable(format!("the issuer's key cannot be used: {e}")))?;
    let alg = jwk
        .common
        .key_algorithm
        .and_then(|alg| alg.to_string().parse().ok());
    Ok((key, alg))
}

async fn fetch(client: &reqwest::Client, uri: &str) -> Result<JwkSet, AuthError> {
    let unavailable = |e: String| AuthError::Unavailable(format!("JWKS {e}"));
    let keys = get_json(client, uri).await.map_err(unavailable)?;
    serde_json::from_value(keys).map_err(|e| unavailable(format!("{uri}: {e}")))
}
