//! An MCP server on the 20 bench tools for the load figures (`benches/load/run.sh`):
//!
//! ```text
//! load_server ours|rmcp stateful|stateless 127.0.0.1:PORT
//! ```
//!
//! Prints `listening on http://ADDR/mcp` on stderr once it accepts connections; runs until
//! it is killed.

use benches::load::{Server, serve};
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;

fn usage() -> ! {
    eprintln!("usage: load_server ours|rmcp stateful|stateless HOST:PORT");
    std::process::exit(2)
}

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [server, mode, addr] = args.as_slice() else {
        usage()
    };
    let server = match server.as_str() {
        "ours" => Server::Ours,
        "rmcp" => Server::Rmcp,
        _ => usage(),
    };
    let stateless = match mode.as_str() {
        "stateful" => false,
        "stateless" => true,
        _ => usage(),
    };
    let listener = TcpListener::bind(addr.as_str()).await?;
    eprintln!("listening on http://{}/mcp", listener.local_addr()?);
    serve(server, stateless, listener, CancellationToken::new()).await;
    Ok(())
}
