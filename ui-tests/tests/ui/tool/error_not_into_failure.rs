use tool_executor::prelude::*;

/// An error with no mapping to a tool failure.
#[derive(Debug)]
pub struct Oops;

/// Fails.
#[tool]
fn fail() -> Result<u8, Oops> {
    Err(Oops)
}

fn main() {}
