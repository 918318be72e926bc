//! Tool definitions for an LLM provider, and a recorded provider response answered.
//!
//! ```text
//! cargo run -p examples --example tool_definitions -- PROVIDER [--set quickstart|demo]
//! cargo run -p examples --example tool_definitions -- PROVIDER --answer
//! ```
//!
//! `PROVIDER` is one of `openai`, `openai-responses`, `anthropic`, `anthropic-strict`,
//! `gemini`, `gemini-json-schema`, `mcp`. The definitions (the request's `tools` array) go to
//! stdout and the losses, one per line, to stderr. With `--answer` the example instead reads
//! the recorded response for that provider (`executor-core/tests/fixtures/providers/`, in the
//! provider's documented format), runs its tool calls on the quickstart tools and prints the
//! messages to append to the conversation.

use std::process::ExitCode;

use tool_executor::ToolSet;
use tool_executor::provider::{Definitions, Provider};

// The tour's tools and the MCP demo tools, from their own examples (their `main`s go unused).
#[allow(dead_code)]
#[path = "quickstart.rs"]
mod quickstart;

#[allow(dead_code)]
#[path = "mcp_server.rs"]
mod demo;

fn fixture(provider: Provider) -> &'static str {
    match provider {
        Provider::OpenAiChat => {
            include_str!("../executor-core/tests/fixtures/providers/openai.json")
        }
        Provider::OpenAiResponses => {
            include_str!("../executor-core/tests/fixtures/providers/openai-responses.json")
        }
        Provider::Anthropic | Provider::AnthropicStrict => {
            include_str!("../executor-core/tests/fixtures/providers/anthropic.json")
        }
        _ => include_str!("../executor-core/tests/fixtures/providers/gemini.json"),
    }
}

struct Args {
    provider: Provider,
    demo: bool,
    answer: bool,
}

fn args() -> Result<Args, String> {
    let mut args = std::env::args().skip(1);
    let provider = args.next().ok_or("missing PROVIDER")?;
    let provider: Provider = provider.parse().map_err(|e| format!("{e}"))?;
    let mut parsed = Args {
        provider,
        demo: false,
        answer: false,
    };
    while let Some(arg) = args.next() {
        match (arg.as_str(), args.next().as_deref()) {
            ("--set", Some("quickstart")) => parsed.demo = false,
            ("--set", Some("demo")) => parsed.demo = true,
            ("--answer", None) => parsed.answer = true,
            _ => return Err(format!("unexpected argument `{arg}`")),
        }
    }
    Ok(parsed)
}

fn print_losses(defs: &Definitions) {
    for loss in defs.losses() {
        let schema = serde_json::to_value(loss.schema).unwrap_or_default();
        let schema = schema.as_str().unwrap_or_default();
        eprintln!(
            "loss: {} {schema} {:?}: {}",
            loss.tool, loss.pointer, loss.reason
        );
    }
    eprintln!("{} losses", defs.losses().len());
}

async fn answer(tools: &ToolSet, defs: &Definitions) -> Result<(), Box<dyn std::error::Error>> {
    let response: serde_json::Value = serde_json::from_str(fixture(defs.provider()))?;
    let answer = defs.answer(tools, &response).await?;
    let messages: Vec<_> = answer.into_messages().collect();
    println!("{}", serde_json::to_string_pretty(&messages)?);
    Ok(())
}

#[tokio::main]
async fn main() -> ExitCode {
    let args = match args() {
        Ok(args) => args,
        Err(e) => {
            eprintln!("{e}\nusage: tool_definitions PROVIDER [--set quickstart|demo] [--answer]");
            return ExitCode::from(2);
        }
    };
    let tools = if args.demo {
        demo::tools()
    } else {
        quickstart::tools().expect("the quickstart's tool names are distinct")
    };
    let defs = match tools.definitions(args.provider) {
        Ok(defs) => defs,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    if args.answer {
        if let Err(e) = answer(&tools, &defs).await {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
        return ExitCode::SUCCESS;
    }
    match serde_json::to_string_pretty(&*defs) {
        Ok(json) => println!("{json}"),
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    }
    print_losses(&defs);
    ExitCode::SUCCESS
}
