//! `ToolAgent::with_oauth`: an A2A agent as an OAuth 2.1 protected resource, over loopback
//! with raw HTTP: the card stays public and declares a bearer scheme, the RFC 9728 metadata is
//! served beside it, a call without a good token is 401 with `WWW-Authenticate` before any
//! task exists, the tool sees the token's principal, and a tool whose scope the token lacks
//! fails its task with `insufficient_scope` before its body runs.
#![cfg(all(feature = "a2a", feature = "oauth"))]
#![allow(clippy::result_large_err)]

mod a2a_support;
mod oauth_support;

use std::sync::atomic::{AtomicBool, Ordering};

use a2a_support::{V1, request, send_params};
use oauth_support::{ISSUER, Issuer, TEST_KEY, token};
use serde_json::{Value, json};
use tool_executor::agent::{AgentServer, RunningAgent, ToolAgent};
use tool_executor::auth::{Principal, ResourceServer};
use tool_executor::prelude::*;

static DELETED: AtomicBool = AtomicBool::new(false);

/// Says who is calling, with the scopes the token granted.
#[tool]
fn whoami(ctx: &ToolContext) -> Result<Value, ToolFailure> {
    let user = ctx.require_extension::<Principal>()?;
    Ok(json!({"subject": user.subject(), "scopes": user.scopes(), "tenant": user.claim("tenant")}))
}

/// Deletes a note.
#[tool(scopes = "notes:write")]
fn delete_note(id: u64) -> bool {
    DELETED.store(true, Ordering::SeqCst);
    id > 0
}

async fn serve(issuer: &Issuer) -> (RunningAgent, String) {
    // The resource URI is the agent's public name (a balancer's, say), not its socket.
    let resource = "http://agents.test".to_owned();
    let oauth = ResourceServer::new(resource.clone())
        .with_authorization_server(ISSUER)
        .with_jwks_uri(issuer.url("/jwks"))
        .with_scopes_supported(["notes:read", "notes:write"]);
    let agent = ToolAgent::new(toolset![whoami, delete_note]).with_oauth(oauth);
    let server = AgentServer::bind("127.0.0.1:0", agent)
        .await
        .expect("bind")
        .spawn();
    (server, resource)
}

async fn send(
    server: &RunningAgent,
    token: Option<&str>,
    tool: &str,
    arguments: &Value,
) -> a2a_support::Response {
    let params = send_params(&json!([{ "data": { "tool": tool, "arguments": arguments } }]));
    let body =
        json!({"jsonrpc": "2.0", "id": 1, "method": "SendMessage", "params": params}).to_string();
    let bearer = token.map(|t| format!("Bearer {t}"));
    let mut headers = vec![V1, ("Content-Type", "application/json")];
    if let Some(bearer) = &bearer {
        headers.push(("Authorization", bearer.as_str()));
    }
    request(server.local_addr(), "POST", "/", &headers, Some(&body)).await
}

#[tokio::test]
async fn the_card_is_public_declares_the_scheme_and_the_metadata_is_beside_it() {
    let issuer = Issuer::start().await;
    let (server, resource) = serve(&issuer).await;
    let card = request(
        server.local_addr(),
        "GET",
        "/.well-known/agent-card.json",
        &[],
        None,
    )
    .await
    .json();
    let scheme = &card["securitySchemes"]["oauth2-bearer"];
    assert_eq!(
        scheme["httpAuthSecurityScheme"]["scheme"], "Bearer",
        "{card}"
    );
    assert!(
        scheme["httpAuthSecurityScheme"]["description"]
            .as_str()
            .unwrap()
            .contains("/.well-known/oauth-protected-resource"),
        "{card}"
    );
    assert!(
        card["securityRequirements"][0]["schemes"]["oauth2-bearer"].is_object(),
        "{card}"
    );
    let metadata = request(
        server.local_addr(),
        "GET",
        "/.well-known/oauth-protected-resource",
        &[],
        None,
    )
    .await;
    assert_eq!(metadata.status, 200);
    assert_eq!(metadata.json()["resource"], resource);
    assert_eq!(metadata.json()["authorization_servers"], json!([ISSUER]));
}

#[tokio::test]
async fn a_call_without_a_good_token_is_401_with_a_challenge() {
    let issuer = Issuer::start().await;
    let (server, resource) = serve(&issuer).await;
    let reply = send(&server, None, "whoami", &json!({})).await;
    assert_eq!(reply.status, 401, "{}", reply.body);
    let challenge = reply.header("www-authenticate").expect("a challenge");
    assert!(
        challenge.starts_with("Bearer resource_metadata="),
        "{challenge}"
    );

    let elsewhere = token(TEST_KEY, "test-key", "http://other.test", "notes:read", 300);
    let reply = send(&server, Some(&elsewhere), "whoami", &json!({})).await;
    assert_eq!(reply.status, 401, "{}", reply.body);
    assert!(
        reply
            .header("www-authenticate")
            .unwrap()
            .contains("invalid_token"),
        "{:?}",
        reply.header("www-authenticate")
    );
    let expired = token(TEST_KEY, "test-key", &resource, "notes:read", -600);
    assert_eq!(
        send(&server, Some(&expired), "whoami", &json!({}))
            .await
            .status,
        401
    );
}

#[tokio::test]
async fn the_tool_sees_the_tokens_principal_and_a_missing_scope_fails_before_the_body() {
    let issuer = Issuer::start().await;
    let (server, resource) = serve(&issuer).await;
    let reader = token(TEST_KEY, "test-key", &resource, "notes:read", 300);
    let reply = send(&server, Some(&reader), "whoami", &json!({}))
        .await
        .json();
    let task = &reply["result"]["task"];
    assert_eq!(task["status"]["state"], "TASK_STATE_COMPLETED", "{reply}");
    assert_eq!(
        task["artifacts"][0]["parts"][0]["data"],
        json!({"subject": "alice", "scopes": ["notes:read"], "tenant": "acme"})
    );

    let reply = send(&server, Some(&reader), "delete_note", &json!({"id": 3}))
        .await
        .json();
    let task = &reply["result"]["task"];
    assert_eq!(task["status"]["state"], "TASK_STATE_FAILED", "{reply}");
    assert!(reply.to_string().contains("insufficient_scope"), "{reply}");
    assert!(!DELETED.load(Ordering::SeqCst));

    let writer = token(TEST_KEY, "test-key", &resource, "notes:write", 300);
    let reply = send(&server, Some(&writer), "delete_note", &json!({"id": 3}))
        .await
        .json();
    assert_eq!(
        reply["result"]["task"]["status"]["state"], "TASK_STATE_COMPLETED",
        "{reply}"
    );
    assert!(DELETED.load(Ordering::SeqCst));
}
