use tool_executor::prelude::*;

/// Greets.
#[prompt]
fn greet(#[arg(default)] name: String) -> String {
    format!("hi {name}")
}

fn main() {}
