use executor_core::prelude::*;

/// Waits.
#[tool(timeout = "5 seconds")]
async fn wait() {}

fn main() {}
