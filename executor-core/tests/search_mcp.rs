//! `SearchTools` served over MCP: a client lists `search_tools` alone, finds a tool in a
//! 200-tool set and calls it by the name it found (raw JSON-RPC lines over an in-memory pipe).
#![cfg(feature = "mcp")]

mod stdio_support;

use std::sync::Arc;

use serde_json::{Value, json};
use stdio_support::StdioClient;
use tool_executor::mcp::McpServer;
use tool_executor::search::SearchTools;
use tool_executor::tool::{BoxFuture, SpecList};
use tool_executor::{ContextExecutor, ToolContext, ToolExecution, ToolFailure, ToolSet, ToolSpec};

/// 199 probes, each answering with its own name.
struct Probes(SpecList);

impl ContextExecutor for Probes {
    fn dispatch<'a>(
        &'a self,
        tool: &'a str,
        _params: &'a Value,
        _ctx: ToolContext,
    ) -> BoxFuture<'a, Result<ToolExecution, ToolFailure>> {
        let output = json!(format!("probed by {tool}"));
        Box::pin(std::future::ready(Ok(ToolExecution::output_only(output))))
    }

    fn list_specs(&self) -> SpecList {
        Arc::clone(&self.0)
    }
}

/// Converts an amount of money from one currency to another.
#[tool_executor::tool]
fn convert_currency(amount: f64, to: &str) -> String {
    format!("{amount} {to}")
}

/// 200 tools: 199 probes and one that converts currencies.
fn tools() -> ToolSet {
    let probes: Vec<Arc<ToolSpec>> = (0..199)
        .map(|i| {
            let schema = json!({"type": "object", "properties": {"id": {"type": "string"}}});
            let description = format!("Probes workspace item number {i}.");
            Arc::new(ToolSpec::new(format!("probe_{i}"), description, schema))
        })
        .collect();
    ToolSet::builder()
        .tool::<convert_currency>()
        .executor(Probes(probes.into()))
        .build()
        .unwrap()
}

#[tokio::test]
async fn a_client_lists_search_tools_finds_a_tool_and_calls_it() {
    let tools = tools();
    assert_eq!(tools.len(), 200);
    let server = McpServer::new(SearchTools::new(Arc::new(tools)).unwrap());
    let mut client = StdioClient::start(server, "search-test").await;
    let mut request = async |id: i64, method: &str, params: Value| -> Value {
        client.request(id, method, params).await["result"].clone()
    };

    let listed = request(1, "tools/list", json!({})).await;
    let names: Vec<&str> = listed["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["search_tools"]);

    let found = request(
        2,
        "tools/call",
        json!({"name": "search_tools", "arguments": {"query": "convert money to another currency"}}),
    )
    .await;
    let first = &found["structuredContent"]["tools"][0];
    assert_eq!(first["name"], "convert_currency", "{found}");

    let called = request(
        3,
        "tools/call",
        json!({"name": first["name"], "arguments": {"amount": 20, "to": "EUR"}}),
    )
    .await;
    assert_eq!(called["content"][0]["text"], "20 EUR", "{called}");
}
