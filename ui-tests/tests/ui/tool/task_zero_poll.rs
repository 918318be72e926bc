use tool_executor::prelude::*;

/// Writes a report.
#[tool(task = "required", poll = "0s")]
async fn report(seconds: u64) -> u64 {
    seconds
}

fn main() {}
