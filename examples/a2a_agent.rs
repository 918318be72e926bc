//! Serves an A2A agent over the real A2A server (JSON-RPC at `/`, HTTP+JSON, the card at
//! `/.well-known/agent-card.json`).
//!
//! ```text
//! cargo run -p examples --example a2a_agent -- --addr 127.0.0.1:3000 --agent echo|slow|tools
//! ```
//!
//! - `echo` answers with the text it received;
//! - `slow` stays working, with a status update every second, until cancelled (or 60 s);
//! - `tools` serves the quickstart's tools as an agent: send a data part
//!   `{"tool": "add", "arguments": {"a": 1, "b": 2}}`.
//!
//! Prints `listening on http://…` once it accepts connections; Ctrl-C stops it gracefully.

use std::time::Duration;

// The quickstart's tools, shared so this agent serves exactly what the tour shows.
#[path = "quickstart.rs"]
#[allow(dead_code)] // the tour's `main` and helpers are not used here
mod quickstart;

use tool_executor::agent::types::agent_card::{AgentCapabilities, AgentInterface, AgentSkill};
use tool_executor::agent::{
    A2aResult, AgentCard, AgentServer, Emitter, EventQueueWriter, RequestContext, ToolAgent,
};

/// Answers with the text it received.
#[tool_executor::agent(
    name = "Echo",
    streaming,
    skill(id = "echo", name = "Echo", description = "Answers with the text it received.", tags = ["echo"], examples = ["hello"]),
)]
impl Echo {
    async fn execute(&self, ctx: &RequestContext, queue: &dyn EventQueueWriter) -> A2aResult<()> {
        let emit = Emitter::new(ctx, queue);
        let text = ctx.message.texts().collect::<Vec<_>>().join("\n");
        emit.text_artifact("echo", text.clone()).await?;
        emit.complete_with_message(text).await
    }
}

struct Echo;

/// Works until cancelled, one status update a second, and gives up after `limit`.
struct Slow {
    limit: Duration,
}

tool_executor::agent_executor!(Slow, |ctx, queue| async move {
    let emit = Emitter::new(ctx, queue);
    let started = tokio::time::Instant::now();
    let mut seconds = 0u64;
    while started.elapsed() < self.limit {
        emit.working(format!("working for {seconds} s")).await?;
        if emit
            .until_cancelled(tokio::time::sleep(Duration::from_secs(1)))
            .await
            .is_none()
        {
            return Ok(()); // `Canceled` is written
        }
        seconds += 1;
    }
    emit.complete_with_message(format!("gave up waiting after {seconds} s"))
        .await
});

fn slow_card(url: &str) -> AgentCard {
    AgentCard::new(
        "Slow",
        env!("CARGO_PKG_VERSION"),
        AgentInterface::jsonrpc(url),
    )
    .with_interface(AgentInterface::rest(url))
    .with_description(
        "Stays working, with a status update every second, until cancelled (or 60 s).",
    )
    .with_capabilities(AgentCapabilities::none().with_streaming(true))
    .with_skill(AgentSkill::new("wait", "Wait", "Waits until cancelled.").with_tags(["wait"]))
}

#[derive(Debug)]
struct Args {
    addr: String,
    agent: String,
}

fn args() -> Result<Args, String> {
    let usage = "usage: a2a_agent --addr HOST:PORT --agent echo|slow|tools";
    let mut addr = None;
    let mut agent = None;
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let value = it
            .next()
            .ok_or_else(|| format!("`{flag}` needs a value; {usage}"))?;
        match flag.as_str() {
            "--addr" => addr = Some(value),
            "--agent" => agent = Some(value),
            _ => return Err(format!("unknown flag `{flag}`; {usage}")),
        }
    }
    Ok(Args {
        addr: addr.unwrap_or_else(|| "127.0.0.1:3000".to_owned()),
        agent: agent.ok_or_else(|| format!("`--agent` is required; {usage}"))?,
    })
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args = args()?;
    let server = match args.agent.as_str() {
        "echo" => AgentServer::bind(&args.addr, Echo).await?,
        "slow" => {
            let slow = Slow {
                limit: Duration::from_secs(60),
            };
            AgentServer::bind_executor(&args.addr, slow, slow_card).await?
        }
        "tools" => {
            let tools = ToolAgent::new(quickstart::tools()?)
                .with_name("Quickstart tools")
                .with_description("The quickstart tools as an A2A agent: one skill per tool.");
            AgentServer::bind(&args.addr, tools).await?
        }
        other => {
            return Err(format!("unknown agent `{other}`; expected echo, slow or tools").into());
        }
    };
    println!("listening on {} ({} agent)", server.url(), args.agent);
    let report = server
        .run_until(async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await;
    println!("stopped: {} connections served", report.serve.accepted);
    Ok(())
}
