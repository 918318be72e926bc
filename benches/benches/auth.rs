//! What bearer-token validation costs per request, with the JWKS cache warm
//! (`auth::ResourceServer::authenticate` on an RS256 JWT):
//!
//! - `repeat`: the token the client sent before (the usual request of a session): the
//!   verified-token cache answers;
//! - `first_sight`: a token the server has not seen, so its signature, expiry, issuer and
//!   audience are checked against the cached key set (no fetch);
//! - `decode_only`: `jsonwebtoken::decode` of the same tokens with a prepared key and
//!   validation, the library's own floor for a signature check, in the same run.
//!
//! The keys come from a JWKS endpoint on 127.0.0.1, fetched once before timing.
//!
//! Run: `cargo bench -p benches --bench auth` (see BENCHMARKS.md §3 for the settings).
//! Times are the benchmark thread's CPU time (see `common`).

use std::hint::black_box;
use std::time::{SystemTime, UNIX_EPOCH};

use benches::ready;
use common::ThreadCpuTime;
use criterion::{Criterion, criterion_group, criterion_main};
use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation};
use serde_json::{Map, Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;
use tool_executor::auth::ResourceServer;

mod common;

const ISSUER: &str = "http://auth.test";
const RESOURCE: &str = "http://127.0.0.1/mcp";
const KEY: &[u8] = include_bytes!("../../executor-core/tests/fixtures/oauth/test-key.pem");
const JWK: &str = include_str!("../../executor-core/tests/fixtures/oauth/test-jwk.json");
/// More distinct tokens than the verified-token cache keeps (1,024), so cycling through them
/// never hits it.
const FRESH: usize = 2048;

fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .expect("the clock is after 1970")
        .as_secs()
}

/// An RS256 token for `RESOURCE`, distinct by `jti`, valid for an hour.
fn token(key: &EncodingKey, jti: usize) -> String {
    let mut header = Header::new(Algorithm::RS256);
    header.kid = Some("test-key".to_owned());
    let claims = json!({
        "iss": ISSUER, "sub": "alice", "aud": RESOURCE, "scope": "notes:read notes:write",
        "exp": now() + 3600, "iat": now(), "jti": jti.to_string(),
    });
    jsonwebtoken::encode(&header, &claims, key).expect("the test key signs")
}

/// Serves the key set at any path on 127.0.0.1; returns its URL.
async fn serve_jwks() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("a port");
    let addr = listener.local_addr().expect("bound");
    let jwk: Value = serde_json::from_str(JWK).expect("the fixture is JSON");
    let body = json!({"keys": [jwk]}).to_string();
    tokio::spawn(async move {
        while let Ok((mut stream, _)) = listener.accept().await {
            let body = body.clone();
            tokio::spawn(async move {
                let mut seen = Vec::new();
                let mut buf = [0u8; 1024];
                while !seen.windows(4).any(|w| w == b"\r\n\r\n") {
                    match stream.read(&mut buf).await {
                        Ok(0) | Err(_) => return,
                        Ok(n) => seen.extend_from_slice(&buf[..n]),
                    }
                }
                let reply = format!(
                    "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                    body.len()
                );
                let _ = stream.write_all(reply.as_bytes()).await;
            });
        }
    });
    format!("http://{addr}/jwks")
}

fn auth(c: &mut Criterion<ThreadCpuTime>) {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .expect("a runtime");
    let jwks = runtime.block_on(serve_jwks());
    let oauth = ResourceServer::new(RESOURCE)
        .with_authorization_server(ISSUER)
        .with_jwks_uri(jwks);
    let key = EncodingKey::from_rsa_pem(KEY).expect("the fixture is a PEM key");
    let tokens: Vec<String> = (0..FRESH).map(|i| token(&key, i)).collect();
    let headers: Vec<String> = tokens.iter().map(|t| format!("Bearer {t}")).collect();
    // Warm the key cache (the one fetch), and check every style accepts the same token.
    let principal = runtime
        .block_on(oauth.authenticate(Some(&headers[0])))
        .expect("the token verifies");
    assert_eq!(principal.subject(), "alice");
    assert!(
        runtime
            .block_on(oauth.authenticate(Some("Bearer not-a-token")))
            .is_err()
    );

    let jwk: jsonwebtoken::jwk::Jwk = serde_json::from_str(JWK).expect("a JWK");
    let decoding = DecodingKey::from_jwk(&jwk).expect("an RSA JWK");
    let mut validation = Validation::new(Algorithm::RS256);
    validation.set_audience(&[RESOURCE]);
    validation.set_issuer(&[ISSUER]);
    validation.set_required_spec_claims(&["exp", "aud", "sub", "iss"]);
    let claims = jsonwebtoken::decode::<Map<String, Value>>(&tokens[0], &decoding, &validation)
        .expect("the library accepts the token too")
        .claims;
    assert_eq!(claims["sub"], "alice");

    let mut group = c.benchmark_group("bearer_rs256");
    group.bench_function("repeat", |b| {
        b.iter(|| {
            black_box(ready(oauth.authenticate(Some(black_box(&headers[0])))).expect("verified"))
        });
    });
    let mut next = 0;
    group.bench_function("first_sight", |b| {
        b.iter(|| {
            next = (next + 1) % FRESH;
            black_box(ready(oauth.authenticate(Some(black_box(&headers[next])))).expect("verified"))
        });
    });
    group.bench_function("decode_only", |b| {
        b.iter(|| {
            next = (next + 1) % FRESH;
            black_box(
                jsonwebtoken::decode::<Map<String, Value>>(
                    black_box(&tokens[next]),
                    &decoding,
                    &validation,
                )
                .expect("verified"),
            )
        });
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = common::config();
    targets = auth
}
criterion_main!(benches);
