//! A stand-in authorization server for the OAuth tests: a JWKS whose keys a test may change,
//! an RFC 7662 introspection endpoint, and tokens signed with test keys.
#![allow(dead_code)] // each test binary uses a different subset

use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{SystemTime, UNIX_EPOCH};

use jsonwebtoken::{Algorithm, EncodingKey, Header};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

pub const ISSUER: &str = "http://auth.test";
pub const TEST_KEY: &[u8] = include_bytes!("../fixtures/oauth/test-key.pem");
pub const OTHER_KEY: &[u8] = include_bytes!("../fixtures/oauth/other-key.pem");
pub const TEST_JWK: &str = include_str!("../fixtures/oauth/test-jwk.json");
pub const OTHER_JWK: &str = include_str!("../fixtures/oauth/other-jwk.json");

/// The authorization server's side: a JWKS (whose keys a test may change) and an
/// introspection endpoint, counting JWKS fetches.
#[derive(Clone)]
pub struct Issuer {
    pub addr: SocketAddr,
    pub jwks: Arc<Mutex<Value>>,
    pub fetches: Arc<AtomicUsize>,
    /// Opaque token → introspection answer.
    pub opaque: Arc<Mutex<Vec<(String, Value)>>>,
    /// Tokens issued at `/token` (client `bot`, secret `bot-secret`).
    pub issued: Arc<AtomicUsize>,
    /// The authorization-code grant: codes handed out at `/authorize` (code, PKCE challenge,
    /// scope, resource), clients registered at `/register`, codes and refresh tokens
    /// exchanged at `/token`.
    pub codes: Arc<Mutex<Vec<Code>>>,
    pub registered: Arc<AtomicUsize>,
    pub exchanged: Arc<AtomicUsize>,
    pub refreshed: Arc<AtomicUsize>,
}

/// A code handed out at `/authorize`.
#[derive(Debug, Clone)]
pub struct Code {
    pub value: String,
    pub challenge: String,
    pub scope: String,
    pub resource: String,
}

/// What the stand-in answers.
enum Answer {
    Json(Value),
    Redirect(String),
}

impl Issuer {
    pub async fn start() -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let issuer = Self {
            addr: listener.local_addr().unwrap(),
            jwks: Arc::new(Mutex::new(json!({"keys": [jwk(TEST_JWK)]}))),
            fetches: Arc::new(AtomicUsize::new(0)),
            opaque: Arc::new(Mutex::new(Vec::new())),
            issued: Arc::new(AtomicUsize::new(0)),
            codes: Arc::new(Mutex::new(Vec::new())),
            registered: Arc::new(AtomicUsize::new(0)),
            exchanged: Arc::new(AtomicUsize::new(0)),
            refreshed: Arc::new(AtomicUsize::new(0)),
        };
        let served = issuer.clone();
        tokio::spawn(async move {
            loop {
                let (stream, _) = listener.accept().await.unwrap();
                tokio::spawn(served.clone().answer(stream));
            }
        });
        issuer
    }

    async fn answer(self, mut stream: TcpStream) {
        let (head, body) = read_request(&mut stream).await;
        let target = head.split_whitespace().nth(1).unwrap_or("").to_owned();
        let (path, query) = target.split_once('?').unwrap_or((&target, ""));
        let form: Vec<(&str, String)> = body
            .split('&')
            .chain(query.split('&'))
            .filter_map(|pair| pair.split_once('='))
            .map(|(k, v)| (k, decode(v)))
            .collect();
        let field = |name: &str| {
            form.iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| v.clone())
                .unwrap_or_default()
        };
        if let Some(answer) = self.code_flow(path, &field, &body) {
            let response = match answer {
                Answer::Json(value) => ok(&value),
                Answer::Redirect(location) => format!(
                    "HTTP/1.1 302 Found\r\nLocation: {location}\r\nContent-Length: 0\r\n\
                     Connection: close\r\n\r\n"
                ),
            };
            let _ = stream.write_all(response.as_bytes()).await;
            return;
        }
        let answer = match path {
            "/.well-known/oauth-authorization-server" => {
                json!({"issuer": self.url(""), "jwks_uri": self.url("/jwks"),
                       "token_endpoint": self.url("/token"),
                       "authorization_endpoint": self.url("/authorize"),
                       "registration_endpoint": self.url("/register"),
                       "code_challenge_methods_supported": ["S256"],
                       "token_endpoint_auth_methods_supported": ["none"]})
            }
            "/token" => {
                // The client-credentials grant for `bot:bot-secret` (HTTP Basic), RFC 8707.
                let authorized = head
                    .to_ascii_lowercase()
                    .contains("authorization: basic ym90omjvdc1zzwnyzxq=");
                if !authorized || field("grant_type") != "client_credentials" {
                    json!({"error": "invalid_client", "error_description": format!("{head} // {body}")})
                } else {
                    self.issued.fetch_add(1, Ordering::SeqCst);
                    let resource = field("resource");
                    let scope = field("scope");
                    json!({"access_token": token(TEST_KEY, "test-key", &resource, &scope, 300),
                           "token_type": "Bearer", "expires_in": 300})
                }
            }
            "/jwks" => {
                self.fetches.fetch_add(1, Ordering::SeqCst);
                self.jwks.lock().unwrap().clone()
            }
            "/introspect" => {
                // HTTP Basic `rs:secret`.
                assert!(
                    head.to_ascii_lowercase()
                        .contains("authorization: basic cnm6c2vjcmv0"),
                    "{head}"
                );
                let token = body.strip_prefix("token=").unwrap_or("");
                let token = token.split('&').next().unwrap_or("");
                self.opaque
                    .lock()
                    .unwrap()
                    .iter()
                    .find(|(t, _)| t == token)
                    .map_or(json!({"active": false}), |(_, v)| v.clone())
            }
            _ => json!({"error": "not found"}),
        };
        let _ = stream.write_all(ok(&answer).as_bytes()).await;
    }

    /// The authorization-code grant's endpoints, when `path` is one of them.
    fn code_flow(&self, path: &str, field: &dyn Fn(&str) -> String, body: &str) -> Option<Answer> {
        let answer = match path {
            "/register" => {
                self.registered.fetch_add(1, Ordering::SeqCst);
                json!({"client_id": "dyn-client", "token_endpoint_auth_method": "none"})
            }
            "/authorize" => {
                // The user approves at once: a redirect with a code bound to the PKCE
                // challenge, the scope and the resource.
                assert_eq!(field("client_id"), "dyn-client");
                assert_eq!(field("code_challenge_method"), "S256");
                let code = {
                    let mut codes = self.codes.lock().unwrap();
                    let code = format!("code-{}", codes.len());
                    codes.push(Code {
                        value: code.clone(),
                        challenge: field("code_challenge"),
                        scope: field("scope"),
                        resource: field("resource"),
                    });
                    code
                };
                return Some(Answer::Redirect(format!(
                    "{}?code={code}&state={}",
                    field("redirect_uri"),
                    field("state")
                )));
            }
            "/token" if field("grant_type") == "authorization_code" => {
                use sha2::Digest as _;
                let codes = self.codes.lock().unwrap().clone();
                let found = codes.iter().find(|c| c.value == field("code"));
                let verifier = field("code_verifier");
                let digest = sha2::Sha256::digest(verifier.as_bytes());
                match found {
                    Some(Code {
                        challenge,
                        scope,
                        resource,
                        ..
                    }) if base64url(&digest) == *challenge
                        && *resource == field("resource")
                        && field("client_id") == "dyn-client" =>
                    {
                        self.exchanged.fetch_add(1, Ordering::SeqCst);
                        // 31 s: the client refreshes 30 s early, so after one second.
                        json!({"access_token": token(TEST_KEY, "test-key", resource, scope, 300),
                               "token_type": "Bearer", "expires_in": 31,
                               "refresh_token": format!("refresh|{scope}|{resource}")})
                    }
                    _ => json!({"error": "invalid_grant", "error_description": body}),
                }
            }
            "/token" if field("grant_type") == "refresh_token" => {
                let refresh = field("refresh_token");
                let mut parts = refresh.split('|').skip(1);
                let (scope, resource) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""));
                self.refreshed.fetch_add(1, Ordering::SeqCst);
                json!({"access_token": token(TEST_KEY, "test-key", resource, scope, 300),
                       "token_type": "Bearer", "expires_in": 300})
            }
            _ => return None,
        };
        Some(Answer::Json(answer))
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }
}

/// A 200 answer carrying `value`.
fn ok(value: &Value) -> String {
    let body = value.to_string();
    format!(
        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\
         Connection: close\r\n\r\n{body}",
        body.len()
    )
}

/// `application/x-www-form-urlencoded` value decoding (`%XX` and `+`).
fn decode(value: &str) -> String {
    let bytes = value.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'%' if i + 2 < bytes.len() => {
                let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).unwrap_or("20");
                out.push(u8::from_str_radix(hex, 16).unwrap_or(b' '));
                i += 3;
            }
            b'+' => {
                out.push(b' ');
                i += 1;
            }
            b => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// base64url without padding (PKCE's S256).
fn base64url(bytes: &[u8]) -> String {
    const TABLE: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let n = (u32::from(chunk[0]) << 16)
            | (u32::from(*chunk.get(1).unwrap_or(&0)) << 8)
            | u32::from(*chunk.get(2).unwrap_or(&0));
        for i in 0..=chunk.len() {
            out.push(char::from(TABLE[(n >> (18 - 6 * i) & 63) as usize]));
        }
    }
    out
}

pub fn jwk(text: &str) -> Value {
    serde_json::from_str(text).unwrap()
}

async fn read_request(stream: &mut TcpStream) -> (String, String) {
    let mut seen = Vec::new();
    let mut buf = [0; 4096];
    loop {
        let n = stream.read(&mut buf).await.unwrap();
        if n == 0 {
            break;
        }
        seen.extend_from_slice(&buf[..n]);
        let text = String::from_utf8_lossy(&seen);
        if let Some((head, body)) = text.split_once("\r\n\r\n") {
            let length = head.to_ascii_lowercase().lines().find_map(|l| {
                l.strip_prefix("content-length: ")?
                    .trim()
                    .parse::<usize>()
                    .ok()
            });
            if body.len() >= length.unwrap_or(0) {
                return (head.to_owned(), body.to_owned());
            }
        }
    }
    let text = String::from_utf8_lossy(&seen).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    (head.to_owned(), body.to_owned())
}

pub fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs()
}

/// A token signed with `key` (as `kid`), for `aud`, with `scope`, expiring in `ttl` seconds
/// (negative: already expired).
pub fn token(key: &[u8], kid: &str, aud: &str, scope: &str, ttl: i64) -> String {
    let mut header = Header::new(Algorithm::RS256);
    header.kid = Some(kid.to_owned());
    let exp = now().checked_add_signed(ttl).unwrap();
    let claims = json!({
        "iss": ISSUER, "sub": "alice", "aud": aud, "scope": scope,
        "exp": exp, "iat": now(), "tenant": "acme",
    });
    jsonwebtoken::encode(&header, &claims, &EncodingKey::from_rsa_pem(key).unwrap()).unwrap()
}
