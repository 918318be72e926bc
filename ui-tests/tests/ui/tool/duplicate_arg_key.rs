use tool_executor::prelude::*;

/// Greets.
#[tool]
fn greet(#[arg(rename = "name", rename = "who")] person: String) -> String {
    person
}

fn main() {}
