use tool_executor::prelude::*;

/// Echoes anything.
#[tool]
fn echo<T: serde::Serialize>(value: T) -> T {
    value
}

fn main() {}
