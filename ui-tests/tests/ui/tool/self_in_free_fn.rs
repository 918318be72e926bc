use tool_executor::prelude::*;

/// Reads self outside an impl.
#[tool]
fn read(&self) -> u8 {
    1
}

fn main() {}
