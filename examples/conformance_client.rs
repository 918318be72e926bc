//! The MCP conformance suite's client: `McpToolExecutor` driven by the official suite
//! (`@modelcontextprotocol/conformance client --command …`, run by `.ci/conformance-client.sh`).
//!
//! The suite starts a scenario's server (and, for `auth/*`, its authorization server), then
//! runs this binary with the server's URL as the last argument, the scenario's name in
//! `MCP_CONFORMANCE_SCENARIO` and its data (pre-registered credentials) as JSON in
//! `MCP_CONFORMANCE_CONTEXT`. The client connects, lists the tools and calls the one the
//! scenario serves; the suite judges what it saw on the wire.
//!
//! ```text
//! cargo run -p examples --example conformance_client -- http://127.0.0.1:3000/mcp
//! ```

use std::process::ExitCode;

use serde_json::{Value, json};
use tool_executor::ToolExecutor;
use tool_executor::auth::{AuthorizationCode, ClientCredentials, CrossAppAccess};
use tool_executor::mcp::{McpProtocol, McpServerConfig, McpToolExecutor};

/// The client id the suite's `auth/basic-cimd` scenario expects a client ID metadata
/// document client to use.
const CLIENT_METADATA_URL: &str = "https://conformance-test.local/client-metadata.json";
/// The redirect URI the suite's authorization server sends the code to.
const REDIRECT_URI: &str = "http://localhost:3000/callback";

#[tokio::main]
async fn main() -> ExitCode {
    let Some(url) = std::env::args().nth(1) else {
        eprintln!("usage: conformance_client SERVER_URL (scenario in MCP_CONFORMANCE_SCENARIO)");
        return ExitCode::from(2);
    };
    let scenario = std::env::var("MCP_CONFORMANCE_SCENARIO").unwrap_or_default();
    let context: Value = std::env::var("MCP_CONFORMANCE_CONTEXT")
        .ok()
        .and_then(|raw| serde_json::from_str(&raw).ok())
        .unwrap_or(Value::Null);
    match run(&scenario, &url, &context).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(why) => {
            eprintln!("conformance_client ({scenario}): {why}");
            ExitCode::FAILURE
        }
    }
}

async fn run(scenario: &str, url: &str, context: &Value) -> Result<(), String> {
    let mut config = McpServerConfig::http("conformance", url).protocol(McpProtocol::Initialize);
    let text = |field: &str| context[field].as_str().unwrap_or_default().to_owned();
    if scenario == "auth/client-credentials-jwt" {
        let algorithm = context["signing_algorithm"].as_str().unwrap_or("ES256");
        let tokens = ClientCredentials::private_key_jwt(
            text("client_id"),
            &text("private_key_pem"),
            algorithm,
        )
        .map_err(|e| e.to_string())?;
        config = config.with_token_provider(tokens);
    } else if scenario == "auth/cross-app-access-complete-flow" {
        let tokens = CrossAppAccess::new(
            text("idp_token_endpoint"),
            text("idp_client_id"),
            text("idp_id_token"),
        )
        .with_client(text("client_id"), text("client_secret"));
        config = config.with_token_provider(tokens);
    } else if scenario == "auth/client-credentials-basic" {
        config = config.with_token_provider(ClientCredentials::new(
            text("client_id"),
            text("client_secret"),
        ));
    } else if scenario == "auth/pre-registration" {
        let tokens = AuthorizationCode::new(REDIRECT_URI, follow_redirect)
            .with_client(text("client_id"), Some(text("client_secret")));
        config = config.with_token_provider(tokens);
    } else if scenario.starts_with("auth/") {
        let tokens = AuthorizationCode::new(REDIRECT_URI, follow_redirect)
            .with_client_name("tool-executor-conformance")
            .with_client_metadata_url(CLIENT_METADATA_URL);
        config = config.with_token_provider(tokens);
    }
    let client = McpToolExecutor::connect(config)
        .await
        .map_err(|e| e.to_string())?;
    let names: Vec<String> = client.specs().iter().map(|s| s.name.clone()).collect();
    let call = match scenario {
        "tools_call" => Some(("add_numbers", json!({"a": 5, "b": 3}))),
        // The server closes the call's SSE stream after a priming event with `retry`: the
        // answer comes on the GET stream the client reopens with `Last-Event-ID`.
        "sse-retry" => Some(("test_reconnection", json!({}))),
        _ if names.iter().any(|n| n == "test-tool") => Some(("test-tool", json!({}))),
        _ => None,
    };
    if let Some((tool, arguments)) = call {
        let answer = client.execute(tool, &arguments).await?;
        eprintln!("{tool}: {answer}");
    }
    Ok(())
}

/// The user's consent, as the suite's authorization server gives it: it approves on its own
/// and redirects at once, so the "browser" is one GET whose `Location` is the redirect.
async fn follow_redirect(authorization_url: String) -> Result<String, String> {
    let http = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .map_err(|e| e.to_string())?;
    let response = http
        .get(&authorization_url)
        .send()
        .await
        .map_err(|e| format!("{authorization_url}: {e}"))?;
    response
        .headers()
        .get("location")
        .and_then(|l| l.to_str().ok())
        .map(str::to_owned)
        .ok_or_else(|| {
            format!(
                "{authorization_url} did not redirect ({})",
                response.status()
            )
        })
}
