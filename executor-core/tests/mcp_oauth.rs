//! `McpServer::with_oauth`: streamable HTTP as an OAuth 2.1 protected resource, on raw
//! HTTP/1.1 so every status and header is visible. The keys are served by a loopback JWKS
//! endpoint (and an RFC 7662 introspection endpoint) written here; tokens are signed with a
//! test key. Checked: the RFC 9728 metadata, 401 with `resource_metadata` for a missing,
//! expired, tampered, wrong-audience, wrong-issuer or HMAC-signed token, 403
//! `insufficient_scope` naming the scope before the tool runs, `tools/list` filtered by
//! scope, the principal in the tool's context, a JWKS refreshed once for an unknown key id,
//! and introspection.
#![cfg(all(feature = "mcp-http", feature = "oauth"))]
#![allow(clippy::result_large_err)]

mod oauth_support;

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use jsonwebtoken::{Algorithm, EncodingKey, Header};
use oauth_support::{ISSUER, Issuer, OTHER_JWK, OTHER_KEY, TEST_JWK, TEST_KEY, jwk, now, token};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio_util::sync::CancellationToken;
use tool_executor::auth::{Principal, ResourceServer};
use tool_executor::mcp::McpServer;
use tool_executor::prelude::*;

const WAIT: Duration = Duration::from_secs(10);

static DELETED: AtomicBool = AtomicBool::new(false);

/// Says who is calling.
#[tool]
fn whoami(ctx: &ToolContext) -> Result<String, ToolFailure> {
    Ok(ctx.require_extension::<Principal>()?.subject().to_owned())
}

/// Reads a note.
#[tool(scopes = "notes:read")]
fn read_note(id: u64) -> String {
    format!("note {id}")
}

/// Deletes a note.
#[tool(scopes = "notes:read notes:write")]
fn delete_note(id: u64) -> bool {
    DELETED.store(true, Ordering::SeqCst);
    id > 0
}

struct Served {
    addr: SocketAddr,
    resource: String,
    shutdown: CancellationToken,
}

impl Drop for Served {
    fn drop(&mut self) {
        self.shutdown.cancel();
    }
}

async fn serve(configure: impl FnOnce(ResourceServer) -> ResourceServer) -> Served {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let resource = format!("http://{addr}/mcp");
    let oauth = configure(
        ResourceServer::new(resource.clone())
            .with_authorization_server(ISSUER)
            .with_scopes_supported(["notes:read", "notes:write"]),
    );
    let shutdown = CancellationToken::new();
    let server = McpServer::new(toolset![whoami, read_note, delete_note])
        .with_stateless_http(true)
        .with_oauth(oauth);
    tokio::spawn(server.serve_http_on(listener, shutdown.clone()));
    Served {
        addr,
        resource,
        shutdown,
    }
}

async fn serve_jwks(issuer: &Issuer) -> Served {
    let jwks = issuer.url("/jwks");
    serve(|oauth| oauth.with_jwks_uri(jwks)).await
}

struct Reply {
    status: u16,
    head: String,
    body: String,
}

impl Reply {
    fn header(&self, name: &str) -> Option<&str> {
        self.head.lines().find_map(|line| {
            let (n, v) = line.split_once(':')?;
            n.eq_ignore_ascii_case(name).then(|| v.trim())
        })
    }

    fn json(&self) -> Value {
        let start = self.body.find('{').expect("a JSON body");
        let end = self.body.rfind('}').expect("a JSON body");
        serde_json::from_str(&self.body[start..=end]).unwrap()
    }
}

/// One request on a fresh connection; `token` as a bearer token when given.
async fn http(
    addr: SocketAddr,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: &Value,
) -> Reply {
    let body = if method == "GET" {
        String::new()
    } else {
        body.to_string()
    };
    let mut extra = Vec::new();
    if let Some(token) = token {
        extra.push(format!("Authorization: Bearer {token}\r\n"));
    }
    if let Ok(rpc) = serde_json::from_str::<Value>(&body) {
        extra.push(format!(
            "Mcp-Method: {}\r\n",
            rpc["method"].as_str().unwrap_or("")
        ));
        if let Some(name) = rpc["params"]["name"].as_str() {
            extra.push(format!("Mcp-Name: {name}\r\n"));
        }
    }
    let extra = extra.concat();
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2025-11-25\r\n\
         {extra}Connection: close\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    let mut stream = TcpStream::connect(addr).await.unwrap();
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut raw = String::new();
    tokio::time::timeout(WAIT, stream.read_to_string(&mut raw))
        .await
        .expect("the server answers")
        .unwrap();
    let (head, body) = raw.split_once("\r\n\r\n").expect("an HTTP response");
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .expect("a status line");
    Reply {
        status,
        head: head.to_owned(),
        body: body.to_owned(),
    }
}

fn call(tool: &str, arguments: &Value) -> Value {
    json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": tool, "arguments": arguments}})
}

fn list() -> Value {
    json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"})
}

#[tokio::test]
async fn the_metadata_names_the_resource_and_its_authorization_server() {
    let issuer = Issuer::start().await;
    let served = serve_jwks(&issuer).await;
    for path in [
        "/.well-known/oauth-protected-resource/mcp",
        "/.well-known/oauth-protected-resource",
    ] {
        let reply = http(served.addr, "GET", path, None, &Value::Null).await;
        assert_eq!(reply.status, 200, "{path}: {}", reply.body);
        assert_eq!(
            reply.json(),
            json!({
                "resource": served.resource,
                "authorization_servers": [ISSUER],
                "bearer_methods_supported": ["header"],
                "scopes_supported": ["notes:read", "notes:write"],
            })
        );
    }
}

#[tokio::test]
async fn a_request_without_a_token_is_401_pointing_to_the_metadata() {
    let issuer = Issuer::start().await;
    let served = serve_jwks(&issuer).await;
    let reply = http(served.addr, "POST", "/mcp", None, &list()).await;
    assert_eq!(reply.status, 401);
    assert_eq!(
        reply.header("www-authenticate"),
        Some(
            format!(
                "Bearer resource_metadata=\"http://{}/.well-known/oauth-protected-resource/mcp\", \
                 scope=\"notes:read notes:write\"",
                served.addr
            )
            .as_str()
        )
    );
    // No key was needed to say so.
    assert_eq!(issuer.fetches.load(Ordering::SeqCst), 0);
}

#[tokio::test]
async fn a_good_token_lists_only_what_its_scopes_allow_and_the_tool_sees_its_principal() {
    let issuer = Issuer::start().await;
    let served = serve_jwks(&issuer).await;
    let read_only = token(TEST_KEY, "test-key", &served.resource, "notes:read", 300);

    let reply = http(served.addr, "POST", "/mcp", Some(&read_only), &list()).await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    let names: Vec<String> = reply.json()["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(names, ["whoami", "read_note"]);

    let reply = http(
        served.addr,
        "POST",
        "/mcp",
        Some(&read_only),
        &call("whoami", &json!({})),
    )
    .await;
    assert_eq!(
        reply.json()["result"]["structuredContent"]["result"],
        "alice",
        "{}",
        reply.body
    );
    let reply = http(
        served.addr,
        "POST",
        "/mcp",
        Some(&read_only),
        &call("read_note", &json!({"id": 7})),
    )
    .await;
    assert_eq!(reply.json()["result"]["isError"], false, "{}", reply.body);

    let writer = token(
        TEST_KEY,
        "test-key",
        &served.resource,
        "notes:read notes:write",
        300,
    );
    let reply = http(served.addr, "POST", "/mcp", Some(&writer), &list()).await;
    assert_eq!(reply.json()["result"]["tools"].as_array().unwrap().len(), 3);
    // One fetch served every check.
    assert_eq!(issuer.fetches.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn a_call_without_the_tools_scope_is_403_naming_it_and_the_tool_does_not_run() {
    let issuer = Issuer::start().await;
    let served = serve_jwks(&issuer).await;
    let read_only = token(TEST_KEY, "test-key", &served.resource, "notes:read", 300);
    let reply = http(
        served.addr,
        "POST",
        "/mcp",
        Some(&read_only),
        &call("delete_note", &json!({"id": 7})),
    )
    .await;
    assert_eq!(reply.status, 403, "{}", reply.body);
    let challenge = reply.header("www-authenticate").unwrap();
    assert!(
        challenge.contains("error=\"insufficient_scope\""),
        "{challenge}"
    );
    assert!(challenge.ends_with("scope=\"notes:write\""), "{challenge}");
    assert_eq!(reply.json()["error"], "insufficient_scope");
    assert!(!DELETED.load(Ordering::SeqCst));
}

#[tokio::test]
async fn bad_tokens_are_401_invalid_token_saying_why() {
    let issuer = Issuer::start().await;
    let served = serve_jwks(&issuer).await;
    let good = token(TEST_KEY, "test-key", &served.resource, "notes:read", 300);
    // Flip one character inside the signature (not its last, whose spare bits base64 must
    // keep zero), so the token decodes and only the signature is wrong.
    let at = good.rfind('.').unwrap() + 5;
    let flipped = if &good[at..=at] == "A" { "B" } else { "A" };
    let tampered = format!("{}{flipped}{}", &good[..at], &good[at + 1..]);
    let hmac = jsonwebtoken::encode(
        &Header::new(Algorithm::HS256),
        &json!({"iss": ISSUER, "sub": "mallory", "aud": served.resource, "exp": now() + 300}),
        &EncodingKey::from_secret(b"the public key as a secret").unwrap(),
    )
    .unwrap();
    let cases = [
        (
            token(
                TEST_KEY,
                "test-key",
                "http://other.test/mcp",
                "notes:read",
                300,
            ),
            "issued for another resource",
        ),
        (
            token(TEST_KEY, "test-key", &served.resource, "notes:read", -600),
            "expired",
        ),
        (tampered, "signature does not verify"),
        (hmac, "asymmetric signatures only"),
        ("not-a-jwt".to_owned(), "not a JWT"),
    ];
    for (bad, why) in cases {
        let reply = http(served.addr, "POST", "/mcp", Some(&bad), &list()).await;
        assert_eq!(reply.status, 401, "{why}: {}", reply.body);
        let challenge = reply.header("www-authenticate").unwrap();
        assert!(challenge.contains("error=\"invalid_token\""), "{challenge}");
        assert!(challenge.contains("resource_metadata="), "{challenge}");
        assert!(
            reply.json()["error_description"]
                .as_str()
                .unwrap()
                .contains(why),
            "{why}: {}",
            reply.body
        );
    }
}

#[tokio::test]
async fn a_token_from_another_issuer_is_refused() {
    let issuer = Issuer::start().await;
    let jwks = issuer.url("/jwks");
    let served = serve(|oauth| {
        oauth
            .with_jwks_uri(jwks)
            .with_issuer("http://elsewhere.test")
    })
    .await;
    let good = token(TEST_KEY, "test-key", &served.resource, "notes:read", 300);
    let reply = http(served.addr, "POST", "/mcp", Some(&good), &list()).await;
    assert_eq!(reply.status, 401);
    assert!(
        reply.body.contains("issuer is not trusted"),
        "{}",
        reply.body
    );
}

#[tokio::test]
async fn an_unknown_key_id_refreshes_the_keys_once_and_a_rotated_key_is_then_accepted() {
    let issuer = Issuer::start().await;
    let jwks = issuer.url("/jwks");
    let served = serve(|oauth| {
        oauth
            .with_jwks_uri(jwks)
            .with_jwks_refresh(Duration::from_secs(300), Duration::from_secs(1))
    })
    .await;
    let first = token(TEST_KEY, "test-key", &served.resource, "notes:read", 300);
    assert_eq!(
        http(served.addr, "POST", "/mcp", Some(&first), &list())
            .await
            .status,
        200
    );
    assert_eq!(issuer.fetches.load(Ordering::SeqCst), 1);

    // A token signed with a key the issuer does not (yet) publish: one refresh (the last
    // fetch is older than the refresh interval), then refused; a second such token within the
    // interval causes no fetch.
    tokio::time::sleep(Duration::from_millis(1100)).await;
    let rotated = token(OTHER_KEY, "other-key", &served.resource, "notes:read", 300);
    let reply = http(served.addr, "POST", "/mcp", Some(&rotated), &list()).await;
    assert_eq!(reply.status, 401);
    assert!(reply.body.contains("does not publish"), "{}", reply.body);
    assert_eq!(issuer.fetches.load(Ordering::SeqCst), 2);
    assert_eq!(
        http(served.addr, "POST", "/mcp", Some(&rotated), &list())
            .await
            .status,
        401
    );
    assert_eq!(issuer.fetches.load(Ordering::SeqCst), 2);

    // The issuer rotates: once the interval has passed, the new key is fetched and accepted.
    *issuer.jwks.lock().unwrap() = json!({"keys": [jwk(TEST_JWK), jwk(OTHER_JWK)]});
    tokio::time::sleep(Duration::from_millis(1100)).await;
    assert_eq!(
        http(served.addr, "POST", "/mcp", Some(&rotated), &list())
            .await
            .status,
        200
    );
    assert_eq!(issuer.fetches.load(Ordering::SeqCst), 3);
}

#[tokio::test]
async fn opaque_tokens_are_checked_by_introspection() {
    let issuer = Issuer::start().await;
    let endpoint = issuer.url("/introspect");
    let served = serve(|oauth| oauth.with_introspection(endpoint, "rs", "secret")).await;
    let resource = served.resource.clone();
    issuer.opaque.lock().unwrap().extend([
        (
            "good".to_owned(),
            json!({"active": true, "sub": "bob", "scope": "notes:read", "aud": resource,
                   "iss": ISSUER, "exp": now() + 300}),
        ),
        (
            "elsewhere".to_owned(),
            json!({"active": true, "sub": "bob", "aud": "http://other.test/mcp",
                   "iss": ISSUER, "exp": now() + 300}),
        ),
    ]);
    let reply = http(
        served.addr,
        "POST",
        "/mcp",
        Some("good"),
        &call("whoami", &json!({})),
    )
    .await;
    assert_eq!(
        reply.json()["result"]["structuredContent"]["result"],
        "bob",
        "{}",
        reply.body
    );
    let reply = http(served.addr, "POST", "/mcp", Some("elsewhere"), &list()).await;
    assert_eq!(reply.status, 401);
    assert!(reply.body.contains("another resource"), "{}", reply.body);
    let reply = http(served.addr, "POST", "/mcp", Some("revoked"), &list()).await;
    assert_eq!(reply.status, 401);
    assert!(reply.body.contains("not active"), "{}", reply.body);
}

#[tokio::test]
async fn unreachable_keys_are_503_not_a_verdict_on_the_token() {
    // A port nothing listens on.
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let dead = format!("http://{}/jwks", listener.local_addr().unwrap());
    drop(listener);
    let served = serve(|oauth| oauth.with_jwks_uri(dead)).await;
    let good = token(TEST_KEY, "test-key", &served.resource, "notes:read", 300);
    let reply = http(served.addr, "POST", "/mcp", Some(&good), &list()).await;
    assert_eq!(reply.status, 503, "{}", reply.body);
    assert!(reply.header("retry-after").is_some());
}

#[tokio::test]
async fn the_keys_can_be_found_through_the_issuers_metadata() {
    let issuer = Issuer::start().await;
    let base = issuer.url("");
    let served = serve(|oauth| oauth.with_issuer_keys(base)).await;
    let good = token(TEST_KEY, "test-key", &served.resource, "notes:read", 300);
    let reply = http(served.addr, "POST", "/mcp", Some(&good), &list()).await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert_eq!(issuer.fetches.load(std::sync::atomic::Ordering::SeqCst), 1);
    let metadata = http(
        served.addr,
        "GET",
        "/.well-known/oauth-protected-resource/mcp",
        None,
        &Value::Null,
    )
    .await
    .json();
    assert_eq!(
        metadata["authorization_servers"],
        json!([ISSUER, issuer.url("")])
    );
}

#[tokio::test]
async fn our_client_discovers_the_issuer_gets_a_token_and_keeps_it() {
    use tool_executor::auth::ClientCredentials;
    use tool_executor::mcp::{McpServerConfig, McpToolExecutor};

    let issuer = Issuer::start().await;
    let base = issuer.url("");
    let served = serve(|oauth| oauth.with_issuer_keys(base.clone())).await;
    let tokens = ClientCredentials::new("bot", "bot-secret")
        .with_scope("notes:read")
        .with_issuer(base);
    let config =
        McpServerConfig::http("notes", served.resource.clone()).with_token_provider(tokens);
    let remote = McpToolExecutor::connect(config)
        .await
        .expect("connect with a token");
    let names: Vec<String> = remote.specs().iter().map(|s| s.name.clone()).collect();
    assert_eq!(
        names,
        ["whoami", "read_note"],
        "the token's scope decides the listing"
    );
    for _ in 0..3 {
        let out = remote
            .execute_with_context("read_note", &json!({"id": 7}), ToolContext::new())
            .await
            .unwrap();
        assert_eq!(out.output, json!("note 7"));
    }
    assert_eq!(
        issuer.issued.load(Ordering::SeqCst),
        1,
        "one token served every request"
    );
    // A tool the token may not see is not in the client's catalogue either.
    let refused = remote
        .execute_with_context("delete_note", &json!({"id": 7}), ToolContext::new())
        .await
        .unwrap_err();
    assert!(!DELETED.load(Ordering::SeqCst));
    assert!(
        refused.code() == "unknown_tool",
        "{} :: {}",
        refused.code(),
        refused.message()
    );
}

#[tokio::test]
async fn our_client_runs_the_authorization_code_flow_with_pkce_and_then_refreshes() {
    use tool_executor::auth::AuthorizationCode;
    use tool_executor::mcp::{McpServerConfig, McpToolExecutor};

    let issuer = Issuer::start().await;
    let base = issuer.url("");
    let served = serve(|oauth| oauth.with_issuer_keys(base.clone())).await;
    let consents = Arc::new(std::sync::Mutex::new(Vec::<String>::new()));
    let seen = Arc::clone(&consents);
    // The "browser": the user approves, the server redirects to the callback.
    let user_agent = move |url: String| {
        seen.lock().unwrap().push(url.clone());
        async move {
            let http = reqwest::Client::builder()
                .redirect(reqwest::redirect::Policy::none())
                .build()
                .unwrap();
            let answer = http.get(&url).send().await.map_err(|e| e.to_string())?;
            Ok(answer.headers()["location"].to_str().unwrap().to_owned())
        }
    };
    let tokens =
        AuthorizationCode::new("http://127.0.0.1:9/callback", user_agent).with_issuer(base.clone());
    let config =
        McpServerConfig::http("notes", served.resource.clone()).with_token_provider(tokens);
    let remote = McpToolExecutor::connect(config)
        .await
        .expect("connect after the user's consent");
    let names: Vec<String> = remote.specs().iter().map(|s| s.name.clone()).collect();
    assert_eq!(
        names,
        ["whoami", "read_note", "delete_note"],
        "the challenge's scopes were asked for and granted"
    );
    let url = consents.lock().unwrap()[0].clone();
    assert!(
        url.starts_with(&format!(
            "{base}/authorize?response_type=code&client_id=dyn-client&"
        )),
        "{url}"
    );
    assert!(url.contains("&code_challenge_method=S256&"), "{url}");
    assert!(url.contains("&scope=notes%3Aread%20notes%3Awrite"), "{url}");
    let resource = served.resource.replace(':', "%3A").replace('/', "%2F");
    assert!(url.contains(&format!("&resource={resource}")), "{url}");
    let code = issuer.codes.lock().unwrap()[0].clone();
    assert_eq!(
        (code.scope.as_str(), code.resource.as_str()),
        ("notes:read notes:write", served.resource.as_str())
    );

    let out = remote
        .execute_with_context("read_note", &json!({"id": 7}), ToolContext::new())
        .await
        .unwrap();
    assert_eq!(out.output, json!("note 7"));
    assert_eq!(
        issuer.refreshed.load(Ordering::SeqCst),
        0,
        "the token is still fresh"
    );
    // 31 s tokens are refreshed 30 s early: after a second the refresh token is used, and the
    // user is not asked again.
    tokio::time::sleep(Duration::from_millis(1100)).await;
    let out = remote
        .execute_with_context("read_note", &json!({"id": 8}), ToolContext::new())
        .await
        .unwrap();
    assert_eq!(out.output, json!("note 8"));
    assert_eq!(issuer.refreshed.load(Ordering::SeqCst), 1);
    assert_eq!(consents.lock().unwrap().len(), 1, "one consent");
    assert_eq!(
        issuer.registered.load(Ordering::SeqCst),
        1,
        "one registration"
    );
    assert_eq!(
        issuer.exchanged.load(Ordering::SeqCst),
        1,
        "one code exchanged"
    );
}

/// A provider with a token the server refuses, however often it is asked.
struct Forged;

impl tool_executor::auth::TokenProvider for Forged {
    fn token<'a>(
        &'a self,
        _resource: &'a str,
        _challenge: Option<&'a str>,
        _stale: Option<&'a str>,
    ) -> tool_executor::tool::BoxFuture<'a, Result<String, String>> {
        Box::pin(async { Ok("forged".to_owned()) })
    }
}

#[tokio::test]
async fn a_refused_token_is_a_connect_error_naming_the_challenge() {
    use tool_executor::mcp::{McpServerConfig, McpToolExecutor};

    let issuer = Issuer::start().await;
    let served = serve_jwks(&issuer).await;
    let config =
        McpServerConfig::http("notes", served.resource.clone()).with_token_provider(Forged);
    let error = McpToolExecutor::connect(config)
        .await
        .unwrap_err()
        .to_string();
    assert!(error.starts_with("MCP server `notes`: "), "{error}");
    assert!(
        error.contains("error=\"invalid_token\""),
        "the server's challenge says why: {error}"
    );
    assert!(
        !error.contains("Transport ["),
        "no transport type names: {error}"
    );
}

/// Tokens for `resource`: every scope until `downgraded`, then `notes:read` only.
struct Downgrading {
    resource: String,
    downgraded: Arc<AtomicBool>,
}

impl tool_executor::auth::TokenProvider for Downgrading {
    fn token<'a>(
        &'a self,
        _resource: &'a str,
        _challenge: Option<&'a str>,
        _stale: Option<&'a str>,
    ) -> tool_executor::tool::BoxFuture<'a, Result<String, String>> {
        let scope = if self.downgraded.load(Ordering::SeqCst) {
            "notes:read"
        } else {
            "notes:read notes:write"
        };
        let token = token(TEST_KEY, "test-key", &self.resource, scope, 300);
        Box::pin(async move { Ok(token) })
    }
}

#[tokio::test]
async fn a_403_is_a_terminal_insufficient_scope_failure_and_the_connection_stays() {
    use tool_executor::mcp::{McpServerConfig, McpToolExecutor};

    let issuer = Issuer::start().await;
    let served = serve_jwks(&issuer).await;
    let downgraded = Arc::new(AtomicBool::new(false));
    let tokens = Downgrading {
        resource: served.resource.clone(),
        downgraded: Arc::clone(&downgraded),
    };
    let config =
        McpServerConfig::http("notes", served.resource.clone()).with_token_provider(tokens);
    let remote = McpToolExecutor::connect(config).await.expect("connect");
    assert!(remote.specs().iter().any(|s| s.name == "delete_note"));
    // The grant shrinks: the server now refuses `delete_note` with 403, asked twice.
    downgraded.store(true, Ordering::SeqCst);
    let refused = remote
        .execute_with_context("delete_note", &json!({"id": 7}), ToolContext::new())
        .await
        .unwrap_err();
    assert_eq!(
        refused.code(),
        "insufficient_scope",
        "{}",
        refused.message()
    );
    assert_eq!(
        refused.classification(),
        tool_executor::Classification::Terminal
    );
    assert!(
        refused.message().contains("scope=\"notes:write\""),
        "the challenge names the scope: {}",
        refused.message()
    );
    assert!(!DELETED.load(Ordering::SeqCst));
    // Not a transport failure: the same connection serves what the token may call.
    let out = remote
        .execute_with_context("read_note", &json!({"id": 8}), ToolContext::new())
        .await
        .unwrap();
    assert_eq!(out.output, json!("note 8"));
}

#[tokio::test]
async fn our_client_refuses_to_send_credentials_to_another_issuer() {
    use tool_executor::auth::ClientCredentials;
    use tool_executor::mcp::{McpServerConfig, McpToolExecutor};

    let issuer = Issuer::start().await;
    let base = issuer.url("");
    let served = serve(|oauth| oauth.with_issuer_keys(base)).await;
    let tokens = ClientCredentials::new("bot", "bot-secret").with_issuer("http://trusted.test");
    let config =
        McpServerConfig::http("notes", served.resource.clone()).with_token_provider(tokens);
    let error = McpToolExecutor::connect(config).await.unwrap_err();
    assert!(
        error.to_string().contains("not http://trusted.test"),
        "{error}"
    );
    assert_eq!(issuer.issued.load(Ordering::SeqCst), 0);
}
