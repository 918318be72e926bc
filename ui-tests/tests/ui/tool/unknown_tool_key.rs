use tool_executor::prelude::*;

/// Adds.
#[tool(nmae = "plus")]
fn add(a: i64, b: i64) -> i64 {
    a + b
}

fn main() {}
