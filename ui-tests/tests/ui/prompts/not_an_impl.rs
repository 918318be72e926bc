use tool_executor::prelude::*;

/// Prompts come from an impl block's methods.
#[prompts]
fn greet() -> String {
    "hi".into()
}

fn main() {}
