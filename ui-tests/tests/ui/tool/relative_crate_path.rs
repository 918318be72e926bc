use executor_core::prelude::*;

/// Adds.
#[tool(crate = executor_core)]
fn add(a: i64, b: i64) -> i64 {
    a + b
}

fn main() {}
