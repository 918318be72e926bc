use tool_executor::prelude::*;

/// Greets.
#[prompt]
fn greet(#[arg(complete)] name: String) -> String {
    format!("hi {name}")
}

fn main() {}
