//! `ctx.elicit` over MCP, against rmcp's own client: on a 2025-11-25 session the question is
//! an `elicitation/create` request (stdio framing over an in-process pipe); a client that did
//! not declare the capability gets a clear failure at once, never a wait.
#![cfg(feature = "mcp")]

use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Value, json};
use tool_executor::elicit::Form;
use tool_executor::mcp::McpServer;
use tool_executor::mcp::rmcp;
use tool_executor::prelude::*;

use rmcp::model::{
    CallToolRequestParams, CallToolResult, ClientCapabilities, ClientConfig, ElicitRequestParams,
    ElicitResult, ElicitationAction, ErrorData, Implementation,
};
use rmcp::service::{
    ClientLifecycleMode, ClientServiceExt, RequestContext, RoleClient, RunningService,
};

const WAIT: Duration = Duration::from_secs(20);

mod booking_support;

use booking_support::{Booking, book};

/// Signs the user in on a page of ours.
#[tool]
async fn sign_in(ctx: &ToolContext) -> Result<String, ToolFailure> {
    let answer = ctx
        .elicit_url("Sign in to continue", "https://example.com/sign-in")
        .await?;
    Ok(format!("{}", answer.is_accepted()))
}

/// A client that answers every question from a script and records what it was asked.
#[derive(Clone)]
struct User {
    capabilities: Value,
    replies: Arc<Mutex<Vec<ElicitResult>>>,
    asked: Arc<Mutex<Vec<Value>>>,
}

impl User {
    fn new(capabilities: Value, replies: Vec<ElicitResult>) -> Self {
        Self {
            capabilities,
            replies: Arc::new(Mutex::new(replies)),
            asked: Arc::default(),
        }
    }
}

impl rmcp::ClientHandler for User {
    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        self.asked
            .lock()
            .unwrap()
            .push(serde_json::to_value(&request).unwrap());
        Ok(self.replies.lock().unwrap().remove(0))
    }

    fn get_info(&self) -> ClientConfig {
        let capabilities: ClientCapabilities =
            serde_json::from_value(self.capabilities.clone()).unwrap();
        ClientConfig::new(capabilities, Implementation::new("elicit-test", "1.0"))
    }
}

async fn connect(user: User, lifecycle: ClientLifecycleMode) -> RunningService<RoleClient, User> {
    let (client_end, server_end) = tokio::io::duplex(1 << 20);
    let (server_read, server_write) = tokio::io::split(server_end);
    let server = McpServer::new(toolset![book, sign_in]);
    tokio::spawn(server.serve_io(server_read, server_write));
    user.serve_with_lifecycle(tokio::io::split(client_end), lifecycle)
        .await
        .expect("the client connects")
}

async fn call(
    client: &RunningService<RoleClient, User>,
    tool: &str,
    args: Value,
) -> CallToolResult {
    let Value::Object(args) = args else {
        unreachable!("arguments are objects here")
    };
    let params = CallToolRequestParams::new(tool.to_owned()).with_arguments(args);
    // `RunningService::call_tool` drives 2026-07-28 `input_required` rounds; `Peer`'s does not.
    tokio::time::timeout(WAIT, client.call_tool(params))
        .await
        .expect("the call ends")
        .expect("a result")
}

fn text(result: &CallToolResult) -> String {
    result.content[0].as_text().expect("text").text.clone()
}

fn reply(action: ElicitationAction, content: Option<Value>) -> ElicitResult {
    let result = ElicitResult::new(action);
    match content {
        Some(content) => result.with_content(content),
        None => result,
    }
}

fn both_modes() -> Value {
    json!({ "elicitation": { "form": {}, "url": {} } })
}

#[tokio::test]
async fn a_session_question_is_an_elicitation_create_request() {
    let user = User::new(
        both_modes(),
        vec![
            reply(
                ElicitationAction::Accept,
                Some(json!({ "count": 3, "seat": "Aisle" })),
            ),
            reply(ElicitationAction::Decline, None),
            reply(ElicitationAction::Accept, Some(json!({ "seat": "Window" }))),
        ],
    );
    let asked = Arc::clone(&user.asked);
    let client = connect(user, ClientLifecycleMode::Initialize).await;
    let args = json!({ "show": "Hamlet" });
    assert_eq!(
        text(&call(&client, "book", args.clone()).await),
        "3 Aisle seats for Hamlet"
    );
    assert_eq!(text(&call(&client, "book", args.clone()).await), "declined");
    assert_eq!(
        text(&call(&client, "book", args).await),
        "2 Window seats for Hamlet",
        "the default fills what the answer left out"
    );
    let asked = asked.lock().unwrap();
    assert_eq!(
        asked[0],
        json!({
            "mode": "form",
            "message": "Seats for Hamlet?",
            "requestedSchema": Booking::schema(),
        }),
        "the schema reaches the client whole (titles, bounds, defaults)"
    );
}

#[tokio::test]
async fn a_url_question_reaches_a_client_that_declared_url_mode() {
    let user = User::new(both_modes(), vec![reply(ElicitationAction::Accept, None)]);
    let asked = Arc::clone(&user.asked);
    let client = connect(user, ClientLifecycleMode::Initialize).await;
    assert_eq!(text(&call(&client, "sign_in", json!({})).await), "true");
    let mut asked = asked.lock().unwrap()[0].clone();
    let id = asked["elicitationId"].take();
    assert_eq!(id.as_str().map(str::len), Some(32), "a fresh id: {id}");
    assert_eq!(
        asked,
        json!({
            "mode": "url", "message": "Sign in to continue",
            "url": "https://example.com/sign-in", "elicitationId": null
        })
    );
}

#[tokio::test]
async fn a_client_without_the_capability_gets_a_failure_not_a_wait() {
    let client = connect(
        User::new(json!({}), vec![]),
        ClientLifecycleMode::Initialize,
    )
    .await;
    let result = call(&client, "book", json!({ "show": "Hamlet" })).await;
    assert_eq!(result.is_error, Some(true));
    assert!(
        text(&result).contains("the client did not declare the `elicitation` capability"),
        "{}",
        text(&result)
    );
    let form_only = connect(
        User::new(json!({ "elicitation": {} }), vec![]),
        ClientLifecycleMode::Initialize,
    )
    .await;
    let result = call(&form_only, "sign_in", json!({})).await;
    assert!(
        text(&result).contains("did not declare `elicitation.url`"),
        "{}",
        text(&result)
    );
}

/// On 2026-07-28 the same tool asks through `input_required`; rmcp's client answers with its
/// `create_elicitation` handler and retries, and the tool runs again with the answer.
#[cfg(feature = "request-state")]
#[tokio::test]
async fn on_2026_07_28_rmcp_answers_the_input_required_round_with_the_same_handler() {
    use rmcp::model::ProtocolVersion;
    let user = User::new(
        both_modes(),
        vec![
            reply(
                ElicitationAction::Accept,
                Some(json!({ "count": 4, "seat": "Window" })),
            ),
            reply(ElicitationAction::Cancel, None),
        ],
    );
    let asked = Arc::clone(&user.asked);
    let lifecycle = ClientLifecycleMode::Discover {
        preferred_versions: vec![ProtocolVersion::V_2026_07_28],
    };
    let client = connect(user, lifecycle).await;
    let args = json!({ "show": "Hamlet" });
    assert_eq!(
        text(&call(&client, "book", args.clone()).await),
        "4 Window seats for Hamlet"
    );
    assert_eq!(text(&call(&client, "book", args).await), "cancelled");
    assert_eq!(
        asked.lock().unwrap()[0]["requestedSchema"],
        Booking::schema(),
        "the question reached the handler whole"
    );
}
