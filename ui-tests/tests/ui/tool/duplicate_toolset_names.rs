use tool_executor::prelude::*;

/// Adds.
#[tool]
fn add(a: i64, b: i64) -> i64 {
    a + b
}

/// Also calls itself `add`.
#[tool(name = "add")]
fn plus(a: i64, b: i64) -> i64 {
    a + b
}

fn main() {
    let _tools = toolset![add, plus];
}
