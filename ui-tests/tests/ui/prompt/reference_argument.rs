use tool_executor::prelude::*;

/// Greets.
#[prompt]
fn greet(name: &str) -> String {
    format!("hi {name}")
}

fn main() {}
