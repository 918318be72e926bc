//! Prompts, resources, rich tool results, logging and completion served by `McpServer`, seen
//! through the in-memory `TestClient` (which these tests exercise too): every answer compared
//! with the JSON MCP specifies.
#![cfg(feature = "mcp")]

use std::time::Duration;

use serde_json::{Value, json};
use tool_executor::catalog::{Catalog, PromptMessage};
use tool_executor::mcp::McpServer;
use tool_executor::mcp::testing::{TestClient, TestClientError};
use tool_executor::prelude::*;
use tool_executor::tool::{
    Annotations, Audio, Content, EmbeddedResource, Image, LogLevel, ResourceContents, ResourceLink,
    Role,
};

/// A chart.
#[tool]
fn chart() -> Image {
    Image::new([1, 2, 3], "image/png")
        .with_annotations(Annotations::for_audience([Role::User]).with_priority(0.9))
}

/// A beep.
#[tool(icon = "https://example.com/beep.svg")]
fn beep() -> Audio {
    Audio::from_base64("UklGRg==", "audio/wav")
}

/// A link to a note.
#[tool]
fn link() -> ResourceLink {
    ResourceLink::new("notes://7", "note 7").with_mime_type("text/plain")
}

/// An embedded note.
#[tool]
fn embedded() -> EmbeddedResource {
    EmbeddedResource::new(ResourceContents::text("notes://7", "text/plain", "seven"))
        .with_annotations(Annotations::default().with_last_modified("2026-01-01T00:00:00Z"))
}

/// Mixed blocks, or a failure.
#[tool]
fn mixed(fail: bool) -> Result<Vec<Content>, ToolFailure> {
    if fail {
        return Err(ToolFailure::terminal("asked to fail"));
    }
    Ok(vec![
        Content::text("look:"),
        Image::from_base64("AA==", "image/png").into(),
    ])
}

/// Logs at three levels.
#[tool]
async fn chatty(ctx: &ToolContext) -> u32 {
    ctx.log(LogLevel::Debug, "detail").await;
    ctx.log(LogLevel::Info, json!({"step": 1})).await;
    ctx.log(LogLevel::Error, "bad").await;
    3
}

fn colors(prefix: &str) -> Vec<String> {
    ["red", "green", "grey"]
        .iter()
        .filter(|c| c.starts_with(prefix))
        .map(|c| (*c).to_owned())
        .collect()
}

/// Paints something.
#[prompt(title = "Paint", icon = "https://example.com/paint.png")]
async fn paint(
    /// What to paint.
    subject: String,
    /// Which color.
    #[arg(complete = colors)]
    color: Option<String>,
) -> Vec<PromptMessage> {
    tokio::task::yield_now().await;
    let color = color.unwrap_or_else(|| "black".into());
    vec![
        PromptMessage::user(format!("Paint a {color} {subject}.")),
        PromptMessage::assistant(Image::from_base64("AA==", "image/png")),
    ]
}

/// Refuses.
#[prompt]
fn refuse() -> Result<String, ToolFailure> {
    Err(ToolFailure::terminal("not today"))
}

/// The readme.
#[resource(
    uri = "docs://readme",
    mime_type = "text/markdown",
    title = "README",
    icon = "data:image/png;base64,AA=="
)]
fn readme() -> String {
    "# Hi".into()
}

/// Raw bytes.
#[resource(uri = "docs://logo", mime_type = "image/png")]
fn logo() -> Vec<u8> {
    vec![1, 2, 3]
}

/// A user's note.
#[resource(template = "notes://{user}/{id}", mime_type = "text/plain")]
async fn note(user: String, id: u64) -> Result<String, ToolFailure> {
    tokio::task::yield_now().await;
    if id == 0 {
        return Err(ToolFailure::terminal("note ids start at 1"));
    }
    Ok(format!("note {id} of {user}"))
}

fn server() -> McpServer {
    McpServer::new(toolset![chart, beep, link, embedded, mixed, chatty])
        .with_catalog(catalog![paint, refuse, readme, logo, note])
}

async fn client() -> TestClient {
    server().test_client().await.unwrap()
}

fn rpc_code(error: TestClientError) -> i64 {
    match error {
        TestClientError::Rpc { code, .. } => code,
        other => panic!("expected a JSON-RPC error, got {other}"),
    }
}

#[tokio::test]
async fn initialize_declares_prompts_resources_logging_and_completions() {
    let client = client().await;
    let caps = &client.initialize_result()["capabilities"];
    assert_eq!(caps["prompts"], json!({}));
    assert_eq!(caps["resources"], json!({"subscribe": true}));
    assert_eq!(caps["logging"], json!({}));
    assert_eq!(caps["completions"], json!({}));
    // The server's own icon.
    let icon = tool_executor::tool::Icon::new("https://example.com/s.svg")
        .with_mime_type("image/svg+xml")
        .with_sizes(["any"]);
    let with_icon = server().with_icon(icon).test_client().await.unwrap();
    assert_eq!(
        with_icon.initialize_result()["serverInfo"]["icons"],
        json!([{"src": "https://example.com/s.svg", "mimeType": "image/svg+xml", "sizes": ["any"]}])
    );
    // A server without a catalog declares logging only.
    let bare = McpServer::new(toolset![beep]).test_client().await.unwrap();
    let caps = &bare.initialize_result()["capabilities"];
    assert_eq!(
        (
            caps.get("prompts"),
            caps.get("resources"),
            caps.get("completions")
        ),
        (None, None, None)
    );
    assert_eq!(caps["logging"], json!({}));
}

#[tokio::test]
async fn rich_results_are_content_blocks_without_structured_content_or_output_schema() {
    let mut client = client().await;
    let tools = client.list_tools().await.unwrap();
    assert!(
        tools
            .iter()
            .all(|t| t.get("outputSchema").is_none() || t["name"] == "chatty")
    );
    let call = |r: Value| {
        (
            r["content"].clone(),
            r.get("structuredContent").cloned(),
            r["isError"].clone(),
        )
    };
    let r = client.call_tool("chart", json!({})).await.unwrap();
    assert_eq!(
        call(r),
        (
            json!([{"type": "image", "data": "AQID", "mimeType": "image/png",
                    "annotations": {"audience": ["user"], "priority": 0.9}}]),
            None,
            json!(false)
        )
    );
    let beep = tools.iter().find(|t| t["name"] == "beep").unwrap();
    assert_eq!(
        beep["icons"],
        json!([{"src": "https://example.com/beep.svg"}])
    );
    let r = client.call_tool("beep", json!({})).await.unwrap();
    assert_eq!(
        r["content"],
        json!([{"type": "audio", "data": "UklGRg==", "mimeType": "audio/wav"}])
    );
    let r = client.call_tool("link", json!({})).await.unwrap();
    assert_eq!(
        r["content"],
        json!([{"type": "resource_link", "uri": "notes://7", "name": "note 7", "mimeType": "text/plain"}])
    );
    let r = client.call_tool("embedded", json!({})).await.unwrap();
    assert_eq!(
        r["content"],
        json!([{"type": "resource",
                "resource": {"uri": "notes://7", "mimeType": "text/plain", "text": "seven"},
                "annotations": {"lastModified": "2026-01-01T00:00:00Z"}}])
    );
    let r = client
        .call_tool("mixed", json!({"fail": false}))
        .await
        .unwrap();
    assert_eq!(
        r["content"],
        json!([{"type": "text", "text": "look:"}, {"type": "image", "data": "AA==", "mimeType": "image/png"}])
    );
    // A failing content tool is an ordinary `isError` result.
    let r = client
        .call_tool("mixed", json!({"fail": true}))
        .await
        .unwrap();
    assert_eq!(
        (r["isError"].clone(), r["content"][0]["text"].clone()),
        (json!(true), json!("asked to fail"))
    );
}

#[tokio::test]
async fn log_messages_follow_the_level_the_client_set() {
    let mut client = client().await;
    // No level chosen: no messages.
    client.call_tool("chatty", json!({})).await.unwrap();
    assert_eq!(client.notifications(), Vec::<Value>::new());
    client.set_log_level("info").await.unwrap();
    client.call_tool("chatty", json!({})).await.unwrap();
    let params: Vec<Value> = client
        .notifications()
        .into_iter()
        .map(|n| {
            assert_eq!(n["method"], "notifications/message");
            n["params"].clone()
        })
        .collect();
    assert_eq!(
        params,
        vec![
            json!({"level": "info", "logger": "chatty", "data": {"step": 1}}),
            json!({"level": "error", "logger": "chatty", "data": "bad"}),
        ]
    );
    // The request's own `_meta` level wins over the session's.
    let request = json!({"name": "chatty", "arguments": {},
                        "_meta": {"io.modelcontextprotocol/logLevel": "error"}});
    client.request("tools/call", request).await.unwrap();
    let levels: Vec<Value> = client
        .notifications()
        .iter()
        .map(|n| n["params"]["level"].clone())
        .collect();
    assert_eq!(levels, vec![json!("error")]);
}

#[tokio::test]
async fn prompts_list_and_get() {
    let mut client = client().await;
    assert_eq!(
        client.list_prompts().await.unwrap(),
        vec![
            json!({"name": "paint", "title": "Paint", "description": "Paints something.",
            "icons": [{"src": "https://example.com/paint.png"}],
            "arguments": [
                {"name": "subject", "description": "What to paint.", "required": true},
                {"name": "color", "description": "Which color.", "required": false}
            ]}),
            json!({"name": "refuse", "description": "Refuses."}),
        ]
    );
    let got = client
        .get_prompt("paint", json!({"subject": "fence", "color": "red"}))
        .await
        .unwrap();
    assert_eq!(
        got["messages"],
        json!([
            {"role": "user", "content": {"type": "text", "text": "Paint a red fence."}},
            {"role": "assistant", "content": {"type": "image", "data": "AA==", "mimeType": "image/png"}}
        ])
    );
    let missing = client.get_prompt("paint", json!({})).await.unwrap_err();
    assert_eq!(
        missing.to_string(),
        "JSON-RPC error -32602: missing required argument `subject`"
    );
    assert_eq!(
        rpc_code(client.get_prompt("nope", json!({})).await.unwrap_err()),
        -32602
    );
    let refused = client.get_prompt("refuse", json!({})).await.unwrap_err();
    assert_eq!(refused.to_string(), "JSON-RPC error -32603: not today");
}

#[tokio::test]
async fn resources_list_read_and_templates() {
    let mut client = client().await;
    assert_eq!(
        client.list_resources().await.unwrap(),
        vec![
            json!({"uri": "docs://readme", "name": "readme", "title": "README",
                   "description": "The readme.", "mimeType": "text/markdown",
                   "icons": [{"src": "data:image/png;base64,AA=="}]}),
            json!({"uri": "docs://logo", "name": "logo", "description": "Raw bytes.", "mimeType": "image/png"}),
        ]
    );
    assert_eq!(
        client.list_resource_templates().await.unwrap(),
        vec![json!({"uriTemplate": "notes://{user}/{id}", "name": "note",
                    "description": "A user's note.", "mimeType": "text/plain"})]
    );
    assert_eq!(
        client.read_resource("docs://logo").await.unwrap(),
        vec![json!({"uri": "docs://logo", "mimeType": "image/png", "blob": "AQID"})]
    );
    assert_eq!(
        client.read_resource("notes://ann/7").await.unwrap(),
        vec![json!({"uri": "notes://ann/7", "mimeType": "text/plain", "text": "note 7 of ann"})]
    );
    assert_eq!(
        rpc_code(client.read_resource("notes://ann/x").await.unwrap_err()),
        -32602
    );
    assert_eq!(
        rpc_code(client.read_resource("docs://nothing").await.unwrap_err()),
        -32002
    );
    assert_eq!(
        rpc_code(client.read_resource("notes://ann/0").await.unwrap_err()),
        -32603
    );
}

#[tokio::test]
async fn subscribers_hear_of_updates_until_they_unsubscribe() {
    let server = server();
    let mut client = server.test_client().await.unwrap();
    client.subscribe("notes://ann/7").await.unwrap();
    assert_eq!(
        rpc_code(client.subscribe("docs://nothing").await.unwrap_err()),
        -32002
    );
    assert_eq!(server.notify_resource_updated("notes://ann/7").await, 1);
    assert_eq!(server.notify_resource_updated("docs://readme").await, 0);
    // The notification arrives before the answer to the next request.
    client.list_prompts().await.unwrap();
    assert_eq!(
        client.notifications(),
        vec![
            json!({"jsonrpc": "2.0", "method": "notifications/resources/updated",
                    "params": {"uri": "notes://ann/7"}})
        ]
    );
    client.unsubscribe("notes://ann/7").await.unwrap();
    assert_eq!(server.notify_resource_updated("notes://ann/7").await, 0);
}

#[tokio::test]
async fn completion_of_prompt_arguments() {
    let mut client = client().await;
    assert_eq!(
        client
            .complete_prompt("paint", "color", "gr")
            .await
            .unwrap(),
        ["green", "grey"]
    );
    assert_eq!(
        client
            .complete_prompt("paint", "subject", "x")
            .await
            .unwrap(),
        Vec::<String>::new()
    );
    assert_eq!(
        rpc_code(client.complete_prompt("nope", "a", "").await.unwrap_err()),
        -32602
    );
}

#[tokio::test]
async fn a_server_without_a_catalog_refuses_prompts_and_resources() {
    let mut client = McpServer::new(toolset![beep]).test_client().await.unwrap();
    assert_eq!(rpc_code(client.list_prompts().await.unwrap_err()), -32601);
    assert_eq!(
        rpc_code(client.read_resource("docs://readme").await.unwrap_err()),
        -32601
    );
}

/// Asks the client's model.
#[tool]
async fn ask(ctx: &ToolContext) -> Result<String, ToolFailure> {
    let model = ctx.require_extension::<tool_executor::mcp::ClientModel>()?;
    model.ask("hello", 10).await
}

#[tokio::test]
async fn sampling_needs_a_client_that_declared_it() {
    // The test client declares no capabilities: the tool gets no `ClientModel`.
    let mut client = McpServer::new(toolset![ask]).test_client().await.unwrap();
    let r = client.call_tool("ask", json!({})).await.unwrap();
    assert_eq!(r["isError"], json!(true));
    assert_eq!(r["_meta"]["executor/failure"]["code"], "missing_extension");
}

#[tokio::test]
async fn sampling_reaches_a_client_that_declared_it() {
    let mut client = McpServer::new(toolset![ask])
        .test_client_with_capabilities(json!({"sampling": {}}))
        .await
        .unwrap();
    // The test client refuses the server's request; the tool reports that.
    let r = client.call_tool("ask", json!({})).await.unwrap();
    assert_eq!(r["isError"], json!(true));
    let text = r["content"][0]["text"].as_str().unwrap();
    assert!(
        text.starts_with("the client's model did not answer:")
            && text.contains("the test client serves no requests"),
        "{text}"
    );
}

#[tokio::test]
async fn the_test_client_times_out() {
    /// Waits forever.
    #[tool]
    async fn stall() -> u32 {
        std::future::pending::<()>().await;
        0
    }
    let server = McpServer::new(toolset![stall]);
    let mut client = server
        .test_client()
        .await
        .unwrap()
        .with_timeout(Duration::from_millis(100));
    assert!(matches!(
        client.call_tool("stall", json!({})).await,
        Err(TestClientError::Timeout)
    ));
}

#[test]
fn the_catalog_stands_alone() {
    let catalog: Catalog = catalog![paint, note];
    assert_eq!(
        catalog
            .prompts()
            .iter()
            .map(|p| p.name.as_str())
            .collect::<Vec<_>>(),
        ["paint"]
    );
    assert_eq!(catalog.templates().len(), 1);
    assert!(catalog.serves("notes://a/1"));
    assert!(!catalog.serves("notes://a"));
}

#[tokio::test]
async fn list_results_carry_the_servers_ttl_and_cache_scope() {
    use tool_executor::mcp::CacheScope;
    let plain = server();
    let mut client = plain.test_client().await.unwrap();
    let listed = client.request("prompts/list", json!({})).await.unwrap();
    assert_eq!(
        (listed.get("ttlMs"), listed.get("cacheScope")),
        (None, None)
    );
    let cached = server().with_list_ttl(Duration::from_secs(60), CacheScope::Public);
    let mut client = cached.test_client().await.unwrap();
    for method in [
        "tools/list",
        "prompts/list",
        "resources/list",
        "resources/templates/list",
    ] {
        let listed = client.request(method, json!({})).await.unwrap();
        assert_eq!(
            (listed["ttlMs"].clone(), listed["cacheScope"].clone()),
            (json!(60_000), json!("public")),
            "{method}"
        );
    }
    // The setting survives a later `with_catalog`, and the catalog a later setting.
    let later = McpServer::new(toolset![beep])
        .with_list_ttl(Duration::from_millis(5), CacheScope::Private)
        .with_catalog(catalog![readme]);
    let mut client = later.test_client().await.unwrap();
    let listed = client.request("resources/list", json!({})).await.unwrap();
    assert_eq!(
        (listed["ttlMs"].clone(), listed["cacheScope"].clone()),
        (json!(5), json!("private"))
    );
}
