use tool_executor::prelude::*;

/// Waits.
#[tool(timeout = "5 seconds")]
async fn wait() {}

fn main() {}
