use tool_executor::prelude::*;

/// Dangerous.
#[tool]
unsafe fn danger() -> u8 {
    0
}

fn main() {}
