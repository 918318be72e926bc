use tool_executor::prelude::*;

/// Greets. A prompt returns messages, a `String` or a `PromptResult`.
#[prompt]
fn greet() -> u32 {
    1
}

fn main() {}
