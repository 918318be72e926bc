//! A transformed set served: over MCP to a real rmcp client in process (listing, calls, hook
//! refusals, `notifications/tools/list_changed` on both lifecycles) and as an A2A card.
#![cfg(feature = "mcp")]

use std::time::Duration;

use serde_json::{Value, json};
use tokio::sync::mpsc;
use tool_executor::ToolSet;
use tool_executor::mcp::McpServer;
use tool_executor::mcp::rmcp;
use tool_executor::prelude::*;
use tool_executor::transform::{BeforeCall, Transform, Transformed, Visibility};

use rmcp::model::{CallToolRequestParams, ProtocolVersion, ServerNotification, SubscriptionFilter};
use rmcp::service::{
    ClientLifecycleMode, ClientServiceExt, NotificationContext, RoleClient, RunningService,
};

const WAIT: Duration = Duration::from_secs(10);

/// Reads a file.
#[tool(read_only, tags = ["files"])]
fn read(path: &str) -> String {
    format!("contents of {path}")
}

/// Deletes a file.
#[tool(destructive, tags = ["files", "admin"])]
fn delete(path: &str) -> String {
    format!("deleted {path}")
}

/// The composed set: `read` served as `cat`, `admin` tools hidden, a guardrail on `/etc`.
fn composed(visibility: &Visibility) -> Transformed<ToolSet> {
    visibility.disable_tag("admin");
    Transform::new(toolset![read, delete])
        .rename("read", "cat")
        .visibility(visibility.clone())
        .before(
            |call: &mut BeforeCall<'_>| match call.args().get("path").and_then(Value::as_str) {
                Some(path) if path.starts_with("/etc") => {
                    Err(ToolFailure::terminal(format!("{path} is off limits"))
                        .with_code("guardrail"))
                }
                _ => Ok(()),
            },
        )
        .build()
        .expect("valid transforms")
}

/// A client that reports each `notifications/tools/list_changed`.
#[derive(Clone)]
struct Listener(mpsc::UnboundedSender<()>);

impl rmcp::ClientHandler for Listener {
    async fn on_tool_list_changed(&self, _context: NotificationContext<RoleClient>) {
        let _ = self.0.send(());
    }
}

async fn connect(
    server: McpServer,
    lifecycle: ClientLifecycleMode,
) -> (
    RunningService<RoleClient, Listener>,
    mpsc::UnboundedReceiver<()>,
) {
    let (client_end, server_end) = tokio::io::duplex(1 << 20);
    let (server_read, server_write) = tokio::io::split(server_end);
    tokio::spawn(server.serve_io(server_read, server_write));
    let (tx, rx) = mpsc::unbounded_channel();
    let client = Listener(tx)
        .serve_with_lifecycle(tokio::io::split(client_end), lifecycle)
        .await
        .expect("the client connects");
    (client, rx)
}

async fn names(client: &RunningService<RoleClient, Listener>) -> Vec<String> {
    let tools = client.peer().list_all_tools().await.unwrap();
    tools.iter().map(|t| t.name.to_string()).collect()
}

async fn call(
    client: &RunningService<RoleClient, Listener>,
    tool: &str,
    args: Value,
) -> Result<rmcp::model::CallToolResult, rmcp::ServiceError> {
    let Value::Object(args) = args else {
        unreachable!("arguments are objects here")
    };
    let params = CallToolRequestParams::new(tool.to_owned()).with_arguments(args);
    client.peer().call_tool(params).await
}

#[tokio::test]
async fn mcp_lists_the_transformed_set_and_announces_visibility_changes() {
    let visibility = Visibility::new();
    let server = McpServer::new(composed(&visibility));
    let (client, mut changed) = connect(server, ClientLifecycleMode::Initialize).await;
    let capabilities = client.peer().peer_info().unwrap().capabilities.clone();
    assert_eq!(capabilities.tools.unwrap().list_changed, Some(true));

    assert_eq!(names(&client).await, ["cat"]);
    let cat = call(&client, "cat", json!({"path": "a"})).await.unwrap();
    assert_eq!(
        cat.structured_content,
        Some(json!("contents of a")).map(|v| json!({"result": v}))
    );
    // The hidden tool and the old name are refused as unknown.
    for refused in ["delete", "read"] {
        let err = call(&client, refused, json!({"path": "a"}))
            .await
            .unwrap_err();
        assert!(
            err.to_string()
                .contains(&format!("unknown tool `{refused}`")),
            "{err}"
        );
    }
    // The guardrail's refusal is a tool error the model can read.
    let guarded = call(&client, "cat", json!({"path": "/etc/passwd"}))
        .await
        .unwrap();
    assert_eq!(guarded.is_error, Some(true));
    let text = serde_json::to_value(&guarded.content).unwrap().to_string();
    assert!(text.contains("/etc/passwd is off limits"), "{text}");

    visibility.enable("delete");
    tokio::time::timeout(WAIT, changed.recv())
        .await
        .expect("list_changed reaches the client")
        .unwrap();
    assert_eq!(names(&client).await, ["cat", "delete"]);
    let deleted = call(&client, "delete", json!({"path": "a"})).await.unwrap();
    assert_eq!(deleted.is_error, Some(false));
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn a_2026_07_28_subscription_receives_list_changed() {
    let visibility = Visibility::new();
    let server = McpServer::new(composed(&visibility));
    let lifecycle = ClientLifecycleMode::Discover {
        preferred_versions: vec![ProtocolVersion::V_2026_07_28],
    };
    let (client, _legacy) = connect(server, lifecycle).await;
    let filter = SubscriptionFilter::builder().tools_list_changed().build();
    let mut subscription = client.peer().listen(filter).await.unwrap();
    assert_eq!(subscription.acknowledged().tools_list_changed, Some(true));
    visibility.disable("cat");
    let notification = tokio::time::timeout(WAIT, subscription.next())
        .await
        .expect("a notification on the subscription")
        .unwrap()
        .unwrap();
    assert!(
        matches!(
            notification,
            ServerNotification::ToolListChangedNotification(_)
        ),
        "{notification:?}"
    );
    assert!(names(&client).await.is_empty());
}

#[tokio::test]
async fn a_set_that_never_changes_does_not_offer_list_changed() {
    let server = McpServer::new(toolset![read]);
    let (client, _changed) = connect(server, ClientLifecycleMode::Initialize).await;
    let capabilities = client.peer().peer_info().unwrap().capabilities.clone();
    assert_eq!(capabilities.tools.unwrap().list_changed, None);
    client.cancel().await.unwrap();
}

#[cfg(feature = "a2a")]
#[test]
fn the_a2a_card_lists_the_transformed_names_and_tags() {
    use tool_executor::agent::{Agent, ToolAgent};
    let visibility = Visibility::new();
    let agent = ToolAgent::new(composed(&visibility)).with_name("Files");
    let card = serde_json::to_value(agent.card("http://127.0.0.1:1/")).unwrap();
    let skills: Vec<(&str, &Value)> = card["skills"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (s["id"].as_str().unwrap(), &s["tags"]))
        .collect();
    assert_eq!(skills, [("cat", &json!(["tool", "read-only", "files"]))]);
}
