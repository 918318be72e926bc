use tool_executor::prelude::*;

/// Adds.
#[tool(crate = tool_executor)]
fn add(a: i64, b: i64) -> i64 {
    a + b
}

fn main() {}
