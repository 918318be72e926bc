use tool_executor::prelude::*;

/// Greets.
#[tool]
fn greet(#[arg(defualt)] excited: bool) -> bool {
    excited
}

fn main() {}
