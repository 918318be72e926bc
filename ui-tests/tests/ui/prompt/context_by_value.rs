use tool_executor::prelude::*;

/// Greets.
#[prompt]
fn greet(name: String, ctx: ToolContext) -> String {
    let _ = ctx;
    name
}

fn main() {}
