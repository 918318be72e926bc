//! `#[prompts]` and `#[resources]` on impl blocks, and prompt and resource functions that take
//! `&ToolContext`, served by `McpServer` and seen through the in-memory `TestClient`: every
//! answer compared with the JSON MCP specifies.
#![cfg(feature = "mcp")]

use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};

use serde_json::{Value, json};
use tool_executor::catalog::{Catalog, PromptMessage};
use tool_executor::mcp::McpServer;
use tool_executor::mcp::testing::TestClientError;
use tool_executor::prelude::*;
use tool_executor::tool::LogLevel;

/// Who is asking, as the server attaches it to every request.
struct Librarian(&'static str);

fn genres(prefix: &str) -> Vec<String> {
    ["poetry", "prose", "plays"]
        .iter()
        .filter(|g| g.starts_with(prefix))
        .map(|g| (*g).to_owned())
        .collect()
}

struct Library {
    shelf: String,
    reads: AtomicU32,
}

#[prompts]
#[resources]
impl Library {
    /// Recommends a book.
    #[prompt(title = "Recommend")]
    async fn recommend(
        &self,
        /// The genre.
        #[arg(complete = genres)]
        genre: String,
        /// How many.
        count: Option<u32>,
        ctx: &ToolContext,
    ) -> Result<String, ToolFailure> {
        let librarian = ctx.require_extension::<Librarian>()?;
        ctx.log(LogLevel::Info, json!({"genre": genre})).await;
        Ok(format!(
            "{} recommends {} {genre} book(s) from {}.",
            librarian.0,
            count.unwrap_or(1),
            self.shelf
        ))
    }

    /// Lists the shelf.
    #[prompt(name = "shelf")]
    fn list_shelf(&self) -> PromptMessage {
        PromptMessage::assistant(format!("The {} shelf.", self.shelf))
    }

    /// The shelf's name.
    #[resource(uri = "library://shelf", mime_type = "text/plain")]
    fn shelf_name(&self) -> String {
        self.reads.fetch_add(1, Ordering::Relaxed);
        self.shelf.clone()
    }

    /// One book.
    #[resource(template = "library://books/{id}", mime_type = "text/plain")]
    async fn book(&self, #[arg(complete = genres)] id: u32, ctx: &ToolContext) -> String {
        tokio::task::yield_now().await;
        let who = ctx.extension::<Librarian>().map_or("nobody", |l| l.0);
        format!("book {id} of {}, fetched for {who}", self.shelf)
    }

    /// Not a catalog entry: the block's other methods stay as they are.
    fn reads(&self) -> u32 {
        self.reads.load(Ordering::Relaxed)
    }
}

/// A free prompt that reads the caller's context too.
#[prompt]
fn whoami(ctx: &ToolContext) -> String {
    format!("session {}", ctx.session_id().unwrap_or("none"))
}

fn library() -> Arc<Library> {
    Arc::new(Library {
        shelf: "poetry".into(),
        reads: AtomicU32::new(0),
    })
}

fn server(library: &Arc<Library>) -> McpServer {
    let catalog = catalog![whoami]
        .with_prompts(Arc::clone(library))
        .with_resources(Arc::clone(library));
    McpServer::new(toolset![])
        .with_catalog(catalog)
        .with_extension(Librarian("Ada"))
}

#[tokio::test]
async fn a_blocks_methods_are_listed_with_their_docs_and_arguments() {
    let library = library();
    let mut client = server(&library).test_client().await.unwrap();
    assert_eq!(
        Value::Array(client.list_prompts().await.unwrap()),
        json!([
            {"name": "whoami", "description": "A free prompt that reads the caller's context too."},
            {"name": "recommend", "title": "Recommend", "description": "Recommends a book.",
             "arguments": [
                {"name": "genre", "description": "The genre.", "required": true},
                {"name": "count", "description": "How many.", "required": false}
             ]},
            {"name": "shelf", "description": "Lists the shelf."}
        ])
    );
    assert_eq!(
        Value::Array(client.list_resources().await.unwrap()),
        json!([{"uri": "library://shelf", "name": "shelf_name",
                "description": "The shelf's name.", "mimeType": "text/plain"}])
    );
    assert_eq!(
        Value::Array(client.list_resource_templates().await.unwrap()),
        json!([{"uriTemplate": "library://books/{id}", "name": "book",
                "description": "One book.", "mimeType": "text/plain"}])
    );
}

#[tokio::test]
async fn a_blocks_methods_run_on_the_value_with_the_callers_context() {
    let library = library();
    let mut client = server(&library).test_client().await.unwrap();
    client.set_log_level("info").await.unwrap();
    let result = client
        .get_prompt("recommend", json!({"genre": "poetry", "count": "2"}))
        .await
        .unwrap();
    assert_eq!(
        result["messages"],
        json!([{"role": "user", "content": {"type": "text",
                "text": "Ada recommends 2 poetry book(s) from poetry."}}])
    );
    // The prompt's log message went out before its answer, named after the prompt.
    let logs: Vec<Value> = client
        .notifications()
        .into_iter()
        .filter(|n| n["method"] == "notifications/message")
        .collect();
    assert_eq!(
        logs,
        [json!({"jsonrpc": "2.0", "method": "notifications/message",
                "params": {"level": "info", "logger": "recommend", "data": {"genre": "poetry"}}})]
    );
    let shelf = client.get_prompt("shelf", json!({})).await.unwrap();
    assert_eq!(
        shelf["messages"],
        json!([{"role": "assistant", "content": {"type": "text", "text": "The poetry shelf."}}])
    );
    let contents = client.read_resource("library://books/12").await.unwrap();
    assert_eq!(
        Value::Array(contents),
        json!([{"uri": "library://books/12", "mimeType": "text/plain",
                "text": "book 12 of poetry, fetched for Ada"}])
    );
    client.read_resource("library://shelf").await.unwrap();
    client.read_resource("library://shelf").await.unwrap();
    assert_eq!(
        library.reads(),
        2,
        "the server reads the caller's own value"
    );
    let whoami = client.get_prompt("whoami", json!({})).await.unwrap();
    let text = whoami["messages"][0]["content"]["text"].as_str().unwrap();
    assert!(
        text.starts_with("session ") && text != "session none",
        "{text}"
    );
}

#[tokio::test]
async fn a_blocks_arguments_are_checked_and_completed() {
    let library = library();
    let mut client = server(&library).test_client().await.unwrap();
    let missing = client.get_prompt("recommend", json!({})).await.unwrap_err();
    assert!(
        matches!(&missing, TestClientError::Rpc { code: -32602, message } if message == "missing required argument `genre`"),
        "{missing:?}"
    );
    let wrong = client
        .read_resource("library://books/twelve")
        .await
        .unwrap_err();
    assert!(
        matches!(&wrong, TestClientError::Rpc { code: -32602, message } if message == "argument `id` has the wrong type: got \"twelve\""),
        "{wrong:?}"
    );
    assert_eq!(
        client
            .complete_prompt("recommend", "genre", "p")
            .await
            .unwrap(),
        ["poetry", "prose", "plays"]
    );
    let completed = client
        .request(
            "completion/complete",
            json!({"ref": {"type": "ref/resource", "uri": "library://books/{id}"},
                   "argument": {"name": "id", "value": "pr"}}),
        )
        .await
        .unwrap();
    assert_eq!(completed["completion"]["values"], json!(["prose"]));
}

#[tokio::test]
async fn a_prompt_without_the_servers_extension_fails_with_its_message() {
    let catalog = Catalog::new().with_prompts(library());
    let mut client = McpServer::new(toolset![])
        .with_catalog(catalog)
        .test_client()
        .await
        .unwrap();
    let failed = client
        .get_prompt("recommend", json!({"genre": "plays"}))
        .await
        .unwrap_err();
    let TestClientError::Rpc { code, message } = failed else {
        panic!("{failed:?}")
    };
    assert_eq!(code, -32603);
    assert!(message.contains("Librarian"), "{message}");
}

#[tokio::test]
async fn the_catalog_reads_a_blocks_value_without_a_server() {
    let catalog = Catalog::new().with_resources(library());
    let args = serde_json::from_value(json!({})).unwrap();
    assert!(matches!(
        catalog.get_prompt("shelf", &args).await,
        Err(tool_executor::catalog::CatalogError::UnknownPrompt(_))
    ));
    let read = catalog.read("library://books/3").await.unwrap();
    assert_eq!(
        serde_json::to_value(read).unwrap(),
        json!([{"uri": "library://books/3", "mimeType": "text/plain",
                "text": "book 3 of poetry, fetched for nobody"}])
    );
}

#[tokio::test]
async fn on_2026_07_28_a_prompts_log_follows_the_requests_level() {
    let library = library();
    let mut client = server(&library).test_client_on("2026-07-28").await.unwrap();
    client
        .get_prompt("recommend", json!({"genre": "plays"}))
        .await
        .unwrap();
    assert!(
        client.notifications().is_empty(),
        "no level chosen, no messages"
    );
    client.set_log_level("info").await.unwrap();
    let result = client
        .get_prompt("recommend", json!({"genre": "plays"}))
        .await
        .unwrap();
    assert_eq!(
        result["messages"][0]["content"]["text"],
        "Ada recommends 1 plays book(s) from poetry."
    );
    assert_eq!(
        client.notifications(),
        [json!({"jsonrpc": "2.0", "method": "notifications/message",
                "params": {"level": "info", "logger": "recommend", "data": {"genre": "plays"}}})]
    );
}
