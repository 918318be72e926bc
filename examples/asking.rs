//! Tools that ask their user, served over MCP: a typed form (`book`), an approval
//! (`delete_note`, `#[tool(confirm)]`) and a URL visit (`sign_in`). The same code asks with
//! `elicitation/create` on a 2025-11-25 session and with `input_required` on 2026-07-28.
//!
//! ```text
//! cargo run -p examples --example asking                               # stdio
//! cargo run -p examples --example asking -- --http 127.0.0.1:8000 --stateless
//! ```
//!
//! `.ci/mcp-peer.sh` drives it with the official Python client's `elicitation_callback`
//! (`executor-core/tests/peers/mcp/elicit_client.py`), on stdio in both protocol eras and
//! on stateless HTTP across two replicas that share the sealing key. The same tools ask over
//! A2A too: `examples/a2a_agent --agent asking` serves them as an agent (a question parks the
//! task `input-required`), and `examples/bridges --asking` re-serves that agent over MCP, so
//! the same Python client answers questions that crossed A2A (`.ci/a2a-peer.sh`).

use std::net::SocketAddr;

use tool_executor::elicit::{Answer, Form, StateKeys};
use tool_executor::prelude::*;

/// Where to sit.
#[derive(Form, Debug, Clone, Copy)]
enum Seat {
    /// By the window
    Window,
    /// On the aisle
    Aisle,
}

/// What `book` asks.
#[derive(Form)]
struct Booking {
    /// How many seats.
    #[form(min = 1, max = 8, default = 2)]
    count: u8,
    seat: Seat,
}

/// Books seats for a show, asking how many and where.
#[tool]
async fn book(ctx: &ToolContext, show: String) -> Result<String, ToolFailure> {
    Ok(
        match ctx.elicit::<Booking>(format!("Seats for {show}?")).await? {
            Answer::Accepted(b) => format!("{} {:?} seats for {show}", b.count, b.seat),
            Answer::Declined => "declined".into(),
            Answer::Cancelled => "cancelled".into(),
        },
    )
}

/// Deletes a note, once the user approves.
#[tool(confirm, destructive)]
fn delete_note(
    /// The note to delete.
    id: u32,
) -> String {
    format!("deleted note {id}")
}

/// Sends the user to a sign-in page (never a password in a form).
#[tool]
async fn sign_in(ctx: &ToolContext) -> Result<String, ToolFailure> {
    let answer = ctx
        .elicit_url("Sign in to continue", "https://example.com/sign-in")
        .await?;
    Ok(if answer.is_accepted() {
        "opened"
    } else {
        "skipped"
    }
    .to_owned())
}

/// The three tools, for the examples that serve them another way (`a2a_agent`, `bridges`).
#[must_use]
pub fn tools() -> tool_executor::tool::ToolSet {
    toolset![book, delete_note, sign_in]
}

#[allow(dead_code)] // unused where another example includes this file for `tools`
fn usage() -> ! {
    eprintln!("usage: asking [--http HOST:PORT [--stateless]]");
    std::process::exit(2)
}

#[tokio::main]
async fn main() -> std::io::Result<()> {
    // Demo only: replicas that continue each other's questions share this key; read yours
    // from a secret store, never from source code.
    let keys = StateKeys::new("demo", [0x42; 32]);
    let server = tool_executor::mcp_server!(tools()).with_request_state_keys(keys);
    let args: Vec<String> = std::env::args().skip(1).collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    match args.as_slice() {
        [] => server.serve_stdio().await,
        ["--http", addr, rest @ ..] => {
            let stateless = match rest {
                [] => false,
                ["--stateless"] => true,
                _ => usage(),
            };
            let addr: SocketAddr = addr.parse().unwrap_or_else(|_| usage());
            let listener = tokio::net::TcpListener::bind(addr).await?;
            // The peer script waits for this line before connecting.
            eprintln!("listening on http://{}/mcp", listener.local_addr()?);
            server
                .with_stateless_http(stateless)
                .serve_http_on(listener, tokio_util::sync::CancellationToken::new())
                .await
        }
        _ => usage(),
    }
}
