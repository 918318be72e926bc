use tool_executor::prelude::*;

/// Greets.
#[prompt]
fn greet(name: &mut String) -> String {
    format!("hi {name}")
}

fn main() {}
