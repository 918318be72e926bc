use tool_executor::prelude::*;

/// Greets.
#[prompt(nmae = "hello")]
fn greet() -> String {
    "hi".into()
}

fn main() {}
