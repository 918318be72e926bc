//! Bridges: an A2A agent's skills consumed as tools (`A2aToolExecutor`) and re-served over MCP
//! (`McpServer`), on stdio.
//!
//! ```text
//! cargo run -p examples --example bridges                  # the quickstart tools: ToolAgent → A2A → MCP
//! cargo run -p examples --example bridges -- --agent URL   # any A2A agent's skills over MCP
//! cargo run -p examples --example bridges -- --direct      # the quickstart tools straight over MCP
//! cargo run -p examples --example bridges -- --traced      # `whose_trace` through A2A, over MCP
//! cargo run -p examples --example bridges -- --asking      # tools that ask, through A2A, over MCP
//! ```
//!
//! `--asking` serves `examples/asking.rs`'s tools the same way: a tool's question parks its A2A
//! task `input-required`, `A2aToolExecutor` relays it to the MCP client (an
//! `elicitation/create` request on a 2025-11-25 session, an `input_required` round on
//! 2026-07-28), and the answer goes back to the task as its next message. `.ci/a2a-peer.sh`
//! runs the official MCP Python client's `elicitation_callback` against it in both eras.
//!
//! `--traced` serves one tool, `whose_trace`, through the same A2A hop: it answers with the W3C
//! trace context it sees, so a client that sends `_meta.traceparent` can check that its trace
//! id crossed both hops with a new parent (`.ci/a2a-peer.sh` does, with the official Python
//! client).
//!
//! Without `--agent` it serves the quickstart's tools as an A2A agent on a free loopback port
//! (as `examples/a2a_agent --agent tools` does), connects to it with `A2aToolExecutor`, and
//! serves what it finds over MCP: every tool with its real schemas, every call a round trip
//! through A2A with the same result as `--direct` (`.ci/a2a-peer.sh` checks that with the
//! official MCP Python client). An agent without published schemas has skills that each take one `text` argument.

use tool_executor::McpServer;
use tool_executor::agent::{A2aToolExecutor, AgentServer, RunningAgent, ToolAgent};

// The quickstart's tools, shared so this bridge serves exactly what the tour shows.
#[path = "quickstart.rs"]
#[allow(dead_code)] // the tour's `main` and helpers are not used here
mod quickstart;

// The tools that ask, for `--asking`.
#[path = "asking.rs"]
#[allow(dead_code)] // its `main` is not used here
mod asking;

const USAGE: &str = "usage: bridges [--agent URL | --direct | --traced | --asking]";

/// The W3C trace this call belongs to, as the tool sees it: trace id, parent span, state and
/// baggage (`null` without one).
#[tool_executor::tool(read_only)]
fn whose_trace(ctx: &tool_executor::ToolContext) -> serde_json::Value {
    ctx.extension::<tool_executor::tool::TraceContext>()
        .map_or(serde_json::Value::Null, |trace| {
            serde_json::json!({
                "trace_id": trace.trace_id(),
                "parent_id": trace.parent_id(),
                "tracestate": trace.tracestate(),
                "baggage": trace.baggage(),
            })
        })
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    // Kept alive while the bridge serves.
    let mut local: Option<RunningAgent> = None;
    let server = match args.as_slice() {
        ["--direct"] => McpServer::new(quickstart::tools()?),
        ["--agent", url] => McpServer::new(A2aToolExecutor::connect(*url).await?),
        [] | ["--traced" | "--asking"] => {
            let agent = match args.as_slice() {
                [] => ToolAgent::new(quickstart::tools()?).with_name("Quickstart tools"),
                ["--asking"] => ToolAgent::new(asking::tools()).with_name("Asking tools"),
                _ => ToolAgent::new(tool_executor::toolset![whose_trace]).with_name("Traced"),
            };
            let agent = AgentServer::bind("127.0.0.1:0", agent).await?.spawn();
            let tools = A2aToolExecutor::connect(agent.url()).await?;
            // stdout is the MCP channel: say where the agent is on stderr.
            eprintln!(
                "bridges: {} tools from the A2A agent at {}",
                tools.card().skills.len(),
                agent.url()
            );
            local = Some(agent);
            McpServer::new(tools)
        }
        _ => return Err(USAGE.into()),
    };
    server.with_name("bridges").serve_stdio().await?;
    if let Some(agent) = local {
        agent.shutdown().await;
    }
    Ok(())
}
