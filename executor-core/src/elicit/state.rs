//! Sealed request state (feature `request-state`): what a stateless server hands the client
//! with a question (MCP 2026-07-28 `requestState`) and reads back on the retry, so any replica
//! that shares the key continues the call.
//!
//! The state is attacker-controlled: the client could edit it, replay it, or move it to
//! another call. So it is sealed with AES-256-GCM (confidential and authenticated), bound as
//! associated data to the tool's name, the SHA-256 of its canonical arguments and the caller's
//! principal, carries an expiry, and is accepted once (a [`ReplayGuard`]).

use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use aes_gcm::aead::{Aead, KeyInit, Payload};
use aes_gcm::{Aes256Gcm, Key, Nonce};
use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use super::canonical::canonical_json;
use super::ids::hex;

/// The default lifetime of a sealed state: ten minutes for the user to answer.
pub const DEFAULT_STATE_TTL: Duration = Duration::from_secs(600);

/// The longest sealed state [`StateKeys::open`] reads (64 KiB); longer is refused unread.
pub const MAX_STATE_BYTES: usize = 64 * 1024;

/// What a sealed state is bound to: the call it belongs to. A state sealed for one binding
/// does not open under another.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Binding {
    tool: String,
    arguments: [u8; 32],
    principal: Option<String>,
}

impl Binding {
    /// The call of `tool` with `arguments` by `principal` (the authenticated subject, if any).
    #[must_use]
    pub fn new(tool: &str, arguments: &Value, principal: Option<&str>) -> Self {
        let canonical = canonical_json(arguments);
        let mut digest = [0u8; 32];
        digest.copy_from_slice(&Sha256::digest(canonical.as_bytes()));
        Self {
            tool: tool.to_owned(),
            arguments: digest,
            principal: principal.map(str::to_owned),
        }
    }

    /// The associated data: every bound field, length-prefixed so no two bindings share one.
    fn associated_data(&self, key_id: &str) -> Vec<u8> {
        let mut out = b"tool-executor/request-state/v1".to_vec();
        for part in [
            key_id.as_bytes(),
            self.tool.as_bytes(),
            &self.arguments,
            self.principal.as_deref().unwrap_or("").as_bytes(),
        ] {
            out.extend_from_slice(&(part.len() as u64).to_be_bytes());
            out.extend_from_slice(part);
        }
        out.push(u8::from(self.principal.is_some()));
        out
    }
}

/// Why a sealed state was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum StateError {
    /// Not a sealed state at all (or longer than [`MAX_STATE_BYTES`]).
    Malformed,
    /// Sealed under a key this server does not hold (rotated out, or another deployment's).
    UnknownKey,
    /// Edited, or sealed for another call (another tool, other arguments, another caller).
    Tampered,
    /// Past its lifetime: the question was asked too long ago.
    Expired,
    /// Already used once.
    Replayed,
}

impl fmt::Display for StateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Malformed => "requestState is not a state this server sealed",
            Self::UnknownKey => "requestState was sealed with a key this server does not hold",
            Self::Tampered => {
                "requestState was altered, or belongs to another call (tool, arguments or caller)"
            }
            Self::Expired => "requestState has expired; call the tool again without it",
            Self::Replayed => "requestState was already used; call the tool again without it",
        })
    }
}

impl std::error::Error for StateError {}

/// Remembers which sealed states were used, so each is accepted once. The default,
/// [`MemoryReplayGuard`], remembers per process; replicas behind one load balancer that must
/// refuse a state replayed on another replica share a store (implement this over it).
pub trait ReplayGuard: Send + Sync + 'static {
    /// Records `id` as used until `expires_at`; `false` when it was used already.
    fn first_use(&self, id: &str, expires_at: SystemTime) -> bool;
}

/// A [`ReplayGuard`] in this process's memory, bounded: at its capacity, expired ids are
/// dropped first, then the ones closest to expiring.
#[derive(Debug)]
pub struct MemoryReplayGuard {
    used: Mutex<HashMap<String, SystemTime>>,
    capacity: usize,
}

impl MemoryReplayGuard {
    /// A guard remembering at most `capacity` ids (at least 1).
    #[must_use]
    pub fn new(capacity: usize) -> Self {
        Self {
            used: Mutex::default(),
            capacity: capacity.max(1),
        }
    }
}

impl Default for MemoryReplayGuard {
    fn default() -> Self {
        Self::new(100_000)
    }
}

impl ReplayGuard for MemoryReplayGuard {
    fn first_use(&self, id: &str, expires_at: SystemTime) -> bool {
        let mut used = self.used.lock().unwrap_or_else(PoisonError::into_inner);
        if used.contains_key(id) {
            return false;
        }
        if used.len() >= self.capacity {
            let now = SystemTime::now();
            used.retain(|_, expiry| *expiry > now);
            while used.len() >= self.capacity {
                let Some(soonest) = used.iter().min_by_key(|(_, e)| **e).map(|(k, _)| k.clone())
                else {
                    break;
                };
                used.remove(&soonest);
            }
        }
        used.insert(id.to_owned(), expires_at);
        true
    }
}

struct SealKey {
    id: String,
    cipher: Aes256Gcm,
}

/// The keys a server seals request state with: one current key, older keys still accepted
/// while states sealed under them may be in flight (rotation), a lifetime and a replay guard.
///
/// Replicas that continue each other's calls hold the same keys. To rotate: deploy the new
/// key as [`previous`](Self::with_previous_key) everywhere, then make it current everywhere,
/// then drop the old one after one lifetime ([`with_ttl`](Self::with_ttl)).
///
/// ```
/// use serde_json::json;
/// use tool_executor::elicit::{Binding, StateError, StateKeys};
///
/// let keys = StateKeys::new("k2", [7; 32]).with_previous_key("k1", [1; 32]);
/// let call = Binding::new("delete_note", &json!({ "id": 4 }), Some("alice"));
/// let sealed = keys.seal(&call, &json!({ "asked": "q0" }));
/// assert_eq!(keys.open(&call, &sealed).unwrap(), json!({ "asked": "q0" }));
/// assert_eq!(keys.open(&call, &sealed), Err(StateError::Replayed));
///
/// let other = Binding::new("delete_note", &json!({ "id": 5 }), Some("alice"));
/// let sealed = keys.seal(&call, &json!({}));
/// assert_eq!(keys.open(&other, &sealed), Err(StateError::Tampered));
/// ```
pub struct StateKeys {
    current: SealKey,
    previous: Vec<SealKey>,
    ttl: Duration,
    guard: Arc<dyn ReplayGuard>,
}

impl fmt::Debug for StateKeys {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let previous: Vec<&str> = self.previous.iter().map(|k| k.id.as_str()).collect();
        f.debug_struct("StateKeys")
            .field("current", &self.current.id)
            .field("previous", &previous)
            .field("ttl", &self.ttl)
            .finish_non_exhaustive()
    }
}

impl StateKeys {
    /// Seals with the 256-bit `secret`, named `id` in every state it seals (so a rotated
    /// server finds the key a state needs). Keep the secret out of source code.
    #[must_use]
    pub fn new(id: impl Into<String>, secret: [u8; 32]) -> Self {
        Self {
            current: seal_key(id.into(), &secret),
            previous: Vec::new(),
            ttl: DEFAULT_STATE_TTL,
            guard: Arc::new(MemoryReplayGuard::default()),
        }
    }

    /// A random key of this process: enough for one server; replicas need a shared
    /// [`new`](Self::new) key.
    ///
    /// # Panics
    /// When the operating system's random generator fails (no key could be trusted then).
    #[must_use]
    pub fn random() -> Self {
        let mut secret = [0u8; 32];
        getrandom::fill(&mut secret).expect("the OS random generator gives a sealing key");
        let mut id = [0u8; 4];
        getrandom::fill(&mut id).expect("the OS random generator gives a key id");
        Self::new(hex(&id), secret)
    }

    /// Also opens states sealed under an older key `id` (never seals with it).
    #[must_use]
    pub fn with_previous_key(mut self, id: impl Into<String>, secret: [u8; 32]) -> Self {
        self.previous.push(seal_key(id.into(), &secret));
        self
    }

    /// How long a sealed state stays valid (default [`DEFAULT_STATE_TTL`]).
    #[must_use]
    pub fn with_ttl(mut self, ttl: Duration) -> Self {
        self.ttl = ttl;
        self
    }

    /// Where used states are remembered (default: this process's memory).
    #[must_use]
    pub fn with_replay_guard(mut self, guard: impl ReplayGuard) -> Self {
        self.guard = Arc::new(guard);
        self
    }

    /// `data` sealed for the call `binding`, valid for the lifetime, once.
    ///
    /// # Panics
    /// When the operating system's random generator fails: a state sealed under a repeated
    /// nonce would expose the key, so nothing weaker is sealed.
    #[must_use]
    pub fn seal(&self, binding: &Binding, data: &Value) -> String {
        let expires =
            now_ms().saturating_add(u64::try_from(self.ttl.as_millis()).unwrap_or(u64::MAX));
        let mut id = [0u8; 16];
        let mut nonce = [0u8; 12];
        getrandom::fill(&mut id).expect("the OS random generator gives a state id");
        getrandom::fill(&mut nonce).expect("the OS random generator gives a nonce");
        let plain = json!({ "exp": expires, "jti": hex(&id), "data": data }).to_string();
        let aad = binding.associated_data(&self.current.id);
        let sealed = self
            .current
            .cipher
            .encrypt(
                &Nonce::from(nonce),
                Payload {
                    msg: plain.as_bytes(),
                    aad: &aad,
                },
            )
            .expect("AES-GCM seals any message under 64 GiB");
        let mut body = nonce.to_vec();
        body.extend_from_slice(&sealed);
        format!("v1.{}.{}", self.current.id, URL_SAFE_NO_PAD.encode(body))
    }

    /// The data sealed in `token` for the call `binding`, once.
    ///
    /// # Errors
    /// A [`StateError`] saying why the state is refused.
    pub fn open(&self, binding: &Binding, token: &str) -> Result<Value, StateError> {
        if token.len() > MAX_STATE_BYTES {
            return Err(StateError::Malformed);
        }
        // `v1.<key id>.<body>`: the body has no `.` (base64url), a key id may.
        let Some(("v1", rest)) = token.split_once('.') else {
            return Err(StateError::Malformed);
        };
        let Some((key_id, body)) = rest.rsplit_once('.') else {
            return Err(StateError::Malformed);
        };
        let key = std::iter::once(&self.current)
            .chain(&self.previous)
            .find(|k| k.id == key_id)
            .ok_or(StateError::UnknownKey)?;
        let body = URL_SAFE_NO_PAD
            .decode(body)
            .map_err(|_| StateError::Malformed)?;
        if body.len() < 12 {
            return Err(StateError::Malformed);
        }
        let (nonce, sealed) = body.split_at(12);
        let nonce: [u8; 12] = nonce.try_into().map_err(|_| StateError::Malformed)?;
        let aad = binding.associated_data(key_id);
        let plain = key
            .cipher
            .decrypt(
                &Nonce::from(nonce),
                Payload {
                    msg: sealed,
                    aad: &aad,
                },
            )
            .map_err(|_| StateError::Tampered)?;
        let mut plain: Value = serde_json::from_slice(&plain).map_err(|_| StateError::Malformed)?;
        let expires = plain["exp"].as_u64().ok_or(StateError::Malformed)?;
        if now_ms() >= expires {
            return Err(StateError::Expired);
        }
        let id = plain["jti"].as_str().ok_or(StateError::Malformed)?;
        if !self
            .guard
            .first_use(id, UNIX_EPOCH + Duration::from_millis(expires))
        {
            return Err(StateError::Replayed);
        }
        Ok(plain["data"].take())
    }
}

fn seal_key(id: String, secret: &[u8; 32]) -> SealKey {
    SealKey {
        id,
        cipher: Aes256Gcm::new(&Key::<Aes256Gcm>::from(*secret)),
    }
}

fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}
