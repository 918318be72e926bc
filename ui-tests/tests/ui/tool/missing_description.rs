use tool_executor::prelude::*;

// No `///` line: a model would see only the name `add`.
#[tool]
fn add(a: i64, b: i64) -> i64 {
    a + b
}

fn main() {}
