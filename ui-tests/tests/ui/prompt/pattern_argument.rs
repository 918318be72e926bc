use tool_executor::prelude::*;

/// Greets.
#[prompt]
fn greet((first, last): (String, String)) -> String {
    format!("hi {first} {last}")
}

fn main() {}
