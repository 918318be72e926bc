//! Reading a tool stream to its end in the MCP client tests.
#![allow(dead_code)] // each test binary uses a different subset

use std::time::Duration;

use tokio::sync::mpsc::Receiver;
use tool_executor::ToolStreamChunk;

/// Every chunk until the stream closes; fails the test if it stalls for `wait`.
pub async fn drain(mut rx: Receiver<ToolStreamChunk>, wait: Duration) -> Vec<ToolStreamChunk> {
    let mut chunks = Vec::new();
    while let Some(chunk) = tokio::time::timeout(wait, rx.recv())
        .await
        .expect("stream stalled")
    {
        chunks.push(chunk);
    }
    chunks
}

/// The fractions of the progress chunks, in order.
pub fn progress_fractions(chunks: &[ToolStreamChunk]) -> Vec<f64> {
    chunks
        .iter()
        .filter_map(|c| match c {
            ToolStreamChunk::Progress { fraction, .. } => Some(*fraction),
            _ => None,
        })
        .collect()
}
