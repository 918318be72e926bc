//! An MCP server only callers with a token from your authorization server may use: OAuth 2.1
//! resource-server mode (`McpServer::with_oauth`), tools with scopes, and the caller's
//! `Principal` in the tools.
//!
//! ```text
//! cargo run -p examples --example secure_server -- --issuer http://127.0.0.1:9000
//! cargo run -p examples --example secure_server -- --issuer URL --http 127.0.0.1:8080
//! ```
//!
//! It prints `listening on http://HOST:PORT/mcp`; that URL is the resource tokens must be
//! issued for (RFC 8707). The keys are found through the issuer's RFC 8414 metadata.
//! README.md ("Securing a server") runs it behind a real authorization server.

use std::net::SocketAddr;

use tool_executor::auth::{Principal, ResourceServer};
use tool_executor::prelude::*;

/// Says who is calling and with which scopes.
#[tool(read_only)]
fn whoami(ctx: &ToolContext) -> Result<String, ToolFailure> {
    let user = ctx.require_extension::<Principal>()?;
    let scopes: Vec<&str> = user.scopes().iter().map(String::as_str).collect();
    Ok(format!("{} ({})", user.subject(), scopes.join(" ")))
}

/// Lists the caller's notes.
#[tool(read_only, scopes = "notes:read")]
fn list_notes(ctx: &ToolContext) -> Result<Vec<String>, ToolFailure> {
    let user = ctx.require_extension::<Principal>()?;
    Ok(vec![format!("{}: buy milk", user.subject())])
}

/// Deletes one of the caller's notes.
#[tool(destructive, scopes = "notes:write")]
fn delete_note(
    /// The note's number.
    id: u32,
) -> String {
    format!("deleted note {id}")
}

fn usage() -> ! {
    eprintln!("usage: secure_server --issuer URL [--http HOST:PORT] [--leeway SECONDS]");
    std::process::exit(2)
}

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut issuer = None;
    let mut addr: SocketAddr = "127.0.0.1:0".parse().expect("an address");
    let mut leeway = 30;
    let mut rest = args.iter();
    while let Some(flag) = rest.next() {
        let value = rest.next().unwrap_or_else(|| usage());
        match flag.as_str() {
            "--issuer" => issuer = Some(value.clone()),
            "--http" => addr = value.parse().unwrap_or_else(|_| usage()),
            "--leeway" => leeway = value.parse().unwrap_or_else(|_| usage()),
            _ => usage(),
        }
    }
    let Some(issuer) = issuer else { usage() };
    // Bind first: the resource URI names the bound port.
    let listener = tokio::net::TcpListener::bind(addr).await?;
    let resource = format!("http://{}/mcp", listener.local_addr()?);
    let oauth = ResourceServer::new(&resource)
        .with_issuer_keys(issuer)
        .with_scopes_supported(["notes:read", "notes:write"])
        .with_resource_name("notes")
        .with_leeway(leeway);
    let server = tool_executor::mcp_server!(toolset![whoami, list_notes, delete_note])
        .with_stateless_http(true)
        .with_oauth(oauth);
    eprintln!("listening on {resource}");
    server
        .serve_http_on(listener, tokio_util::sync::CancellationToken::new())
        .await
}
