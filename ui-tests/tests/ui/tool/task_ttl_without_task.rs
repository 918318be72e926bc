use tool_executor::prelude::*;

/// Writes a report.
#[tool(ttl = "10m")]
async fn report(seconds: u64) -> u64 {
    seconds
}

fn main() {}
