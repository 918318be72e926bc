use tool_executor::prelude::*;

/// Greets.
#[prompt(name = "")]
fn greet() -> String {
    "hi".into()
}

fn main() {}
