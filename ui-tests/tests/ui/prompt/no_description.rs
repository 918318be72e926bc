use tool_executor::prelude::*;

#[prompt]
fn greet() -> String {
    "hi".into()
}

fn main() {}
