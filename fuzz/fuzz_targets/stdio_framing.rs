//! Our MCP stdio framing (`McpServer::serve_io`) on arbitrary client bytes.
//!
//! The input is written to the server in pieces (the first byte picks the piece size, so
//! lines arrive split across reads while the server writes), optionally after a valid
//! handshake (the second byte's low bit) so the bytes reach the post-`initialize` paths.
//! The server must end at EOF within the time limit, and every line it writes must be one
//! JSON-RPC message.
#![no_main]

use std::time::Duration;

use tool_executor::mcp::McpServer;
use tool_executor::prelude::*;
use libfuzzer_sys::fuzz_target;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// Echoes.
#[tool]
fn echo(text: &str) -> String {
    text.to_owned()
}

/// Always fails.
#[tool]
fn refuse(reason: Option<String>) -> Result<String, ToolFailure> {
    Err(ToolFailure::terminal(reason.unwrap_or_default()).with_code("refused"))
}

const HANDSHAKE: &[u8] = b"{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\
    \"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"fuzz\",\
    \"version\":\"1\"}}}\n{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n";

fn run(data: &[u8]) {
    let [piece, flags, input @ ..] = data else {
        return;
    };
    let piece = usize::from(*piece).max(1);
    let mut bytes = Vec::new();
    if flags & 1 == 1 {
        bytes.extend_from_slice(HANDSHAKE);
    }
    bytes.extend_from_slice(input);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .unwrap();
    let output = runtime.block_on(async move {
        let server = McpServer::new(toolset![echo, refuse]).with_max_request_bytes(4096);
        let (client, server_end) = tokio::io::duplex(1 << 16);
        let (server_read, server_write) = tokio::io::split(server_end);
        let serving = tokio::spawn(server.serve_io(server_read, server_write));
        let (mut read, mut write) = tokio::io::split(client);
        let writing = tokio::spawn(async move {
            for chunk in bytes.chunks(piece) {
                if write.write_all(chunk).await.is_err() {
                    return;
                }
                tokio::task::yield_now().await;
            }
            // EOF: the session must end.
            let _ = write.shutdown().await;
        });
        let mut output = Vec::new();
        let done = tokio::time::timeout(Duration::from_secs(5), async {
            read.read_to_end(&mut output).await.unwrap();
            let _ = serving.await.expect("serve_io does not panic");
        })
        .await;
        assert!(done.is_ok(), "the server did not end at EOF");
        writing.abort();
        output
    });
    for line in output.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
        let message: serde_json::Value =
            serde_json::from_slice(line).expect("every line written is JSON");
        assert_eq!(message["jsonrpc"], "2.0", "{message}");
    }
}

fuzz_target!(|data: &[u8]| run(data));
