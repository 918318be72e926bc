//! Serves an A2A agent over the real A2A server (JSON-RPC at `/`, HTTP+JSON, the card at
//! `/.well-known/agent-card.json`).
//!
//! ```text
//! cargo run -p examples --example a2a_agent -- --addr 127.0.0.1:3000 --agent echo|slow|tools|asking
//! ```
//!
//! - `echo` answers with the text it received;
//! - `slow` stays working, with a status update every second, until cancelled (or 60 s); a
//!   message whose text is a number `N` completes after `N` seconds instead;
//! - `tools` serves the quickstart's tools as an agent: send a data part
//!   `{"tool": "add", "arguments": {"a": 1, "b": 2}}`;
//! - `asking` serves `examples/asking.rs`'s tools, which ask their user: a question parks the
//!   task `input-required` (a form in a data part, an approval as the approval extension's
//!   request) and the next message on the task answers it (README "Asking the user").
//!
//! Replicas (`--features postgres`, see README "Scaling out"): `--postgres URL` (or the
//! `DATABASE_URL` environment variable) keeps tasks, push configs and halts in PostgreSQL,
//! shared by every replica on the database; `--replica-timeout-ms N` is how long a replica may
//! be silent before the others fail its running tasks (default 30000); `--public-url URL` is
//! the address the card names (the load balancer's). `--sqlite URL` (`--features sqlite`)
//! keeps them in one file instead.
//!
//! Prints `listening on http://…` once it accepts connections; Ctrl-C stops it gracefully. The
//! `slow` agent prints a line when a task starts and when it stops.

use std::time::Duration;

// The quickstart's tools, shared so this agent serves exactly what the tour shows.
#[path = "quickstart.rs"]
#[allow(dead_code)] // the tour's `main` and helpers are not used here
mod quickstart;

// The tools that ask, served here as an agent.
#[path = "asking.rs"]
#[allow(dead_code)] // its `main` is not used here
mod asking;

use tool_executor::agent::types::agent_card::{AgentCapabilities, AgentInterface, AgentSkill};
use tool_executor::agent::{
    A2aResult, AgentCard, AgentServer, AgentServerBuilder, Emitter, EventQueueWriter,
    RequestContext, ToolAgent,
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

/// Works until cancelled, one status update a second, and gives up after `limit` (or after
/// the number of seconds the message's text names).
struct Slow {
    limit: Duration,
}

tool_executor::agent_executor!(Slow, |ctx, queue| async move {
    let emit = Emitter::new(ctx, queue);
    let asked = ctx
        .message
        .text()
        .and_then(|t| t.trim().parse::<u64>().ok());
    let limit = asked.map_or(self.limit, Duration::from_secs);
    let task = &ctx.task_id.0;
    println!("slow task {task}: started");
    let started = tokio::time::Instant::now();
    let mut seconds = 0u64;
    while started.elapsed() < limit {
        emit.working(format!("working for {seconds} s")).await?;
        if emit
            .until_cancelled(tokio::time::sleep(Duration::from_secs(1)))
            .await
            .is_none()
        {
            println!("slow task {task}: cancelled after {seconds} s, stopped");
            return Ok(()); // `Canceled` is written
        }
        seconds += 1;
    }
    println!("slow task {task}: finished after {seconds} s");
    if asked.is_some() {
        return emit
            .complete_with_message(format!("waited {seconds} s"))
            .await;
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

#[derive(Debug, Default)]
struct Args {
    addr: String,
    agent: String,
    public_url: Option<String>,
    postgres: Option<String>,
    sqlite: Option<String>,
    replica_timeout_ms: Option<u64>,
}

const USAGE: &str = "usage: a2a_agent --addr HOST:PORT --agent echo|slow|tools|asking [--public-url URL] \
    [--postgres URL | --sqlite URL] [--replica-timeout-ms N]";

fn args() -> Result<Args, String> {
    let mut parsed = Args {
        addr: "127.0.0.1:3000".to_owned(),
        postgres: std::env::var("DATABASE_URL").ok().filter(|u| !u.is_empty()),
        ..Args::default()
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let value = it
            .next()
            .ok_or_else(|| format!("`{flag}` needs a value; {USAGE}"))?;
        match flag.as_str() {
            "--addr" => parsed.addr = value,
            "--agent" => parsed.agent = value,
            "--public-url" => parsed.public_url = Some(value),
            "--postgres" => parsed.postgres = Some(value),
            "--sqlite" => parsed.sqlite = Some(value),
            "--replica-timeout-ms" => {
                let ms = value
                    .parse()
                    .map_err(|e| format!("`--replica-timeout-ms {value}`: {e}; {USAGE}"))?;
                parsed.replica_timeout_ms = Some(ms);
            }
            _ => return Err(format!("unknown flag `{flag}`; {USAGE}")),
        }
    }
    if parsed.agent.is_empty() {
        return Err(format!("`--agent` is required; {USAGE}"));
    }
    Ok(parsed)
}

/// The builder for the stores and public URL the flags ask for. Async for the stores, which
/// connect: without either store feature nothing is awaited.
#[cfg_attr(
    not(any(feature = "postgres", feature = "sqlite")),
    allow(clippy::unused_async)
)]
async fn builder(args: &Args) -> Result<AgentServerBuilder, Box<dyn std::error::Error>> {
    let mut builder = AgentServer::builder();
    if let Some(url) = &args.public_url {
        builder = builder.public_url(url);
    }
    if let Some(url) = &args.postgres {
        #[cfg(feature = "postgres")]
        {
            let mut stores = tool_executor::agent::Stores::postgres(url).await?;
            if let Some(ms) = args.replica_timeout_ms {
                stores = stores.with_replica_timeout(Duration::from_millis(ms));
            }
            builder = builder.stores(stores);
        }
        #[cfg(not(feature = "postgres"))]
        return Err(format!(
            "`--postgres {url}` needs this example built with `--features postgres`"
        )
        .into());
    }
    if let Some(url) = &args.sqlite {
        #[cfg(feature = "sqlite")]
        {
            builder = builder.stores(tool_executor::agent::Stores::sqlite(url).await?);
        }
        #[cfg(not(feature = "sqlite"))]
        return Err(
            format!("`--sqlite {url}` needs this example built with `--features sqlite`").into(),
        );
    }
    Ok(builder)
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args = args()?;
    if args.postgres.is_some() && args.sqlite.is_some() {
        return Err(format!("`--postgres` and `--sqlite` exclude each other; {USAGE}").into());
    }
    let builder = builder(&args).await?;
    let server = match args.agent.as_str() {
        "echo" => builder.bind(&args.addr, Echo).await?,
        "slow" => {
            let slow = Slow {
                limit: Duration::from_secs(60),
            };
            builder.bind_executor(&args.addr, slow, slow_card).await?
        }
        "tools" => {
            let tools = ToolAgent::new(quickstart::tools()?)
                .with_name("Quickstart tools")
                .with_description("The quickstart tools as an A2A agent: one skill per tool.");
            builder.bind(&args.addr, tools).await?
        }
        "asking" => {
            let tools = ToolAgent::new(asking::tools())
                .with_name("Asking tools")
                .with_description(
                    "Tools that ask their user: a question parks the task input-required.",
                );
            builder.bind(&args.addr, tools).await?
        }
        other => {
            return Err(
                format!("unknown agent `{other}`; expected echo, slow, tools or asking").into(),
            );
        }
    };
    println!(
        "listening on {} ({} agent, {} tasks)",
        server.url(),
        args.agent,
        match (&args.postgres, &args.sqlite) {
            (Some(_), _) => "postgres",
            (_, Some(_)) => "sqlite",
            _ => "in-memory",
        }
    );
    let report = server
        .run_until(async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await;
    println!("stopped: {} connections served", report.serve.accepted);
    Ok(())
}
