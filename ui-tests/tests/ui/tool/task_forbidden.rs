use tool_executor::prelude::*;

/// Adds.
#[tool(task = "forbidden")]
fn add(a: i64, b: i64) -> i64 {
    a + b
}

fn main() {}
