use executor_core::prelude::*;

/// Dangerous.
#[tool]
unsafe fn danger() -> u8 {
    0
}

fn main() {}
