use tool_executor::prelude::*;

/// A prompt is a function, not a struct.
#[prompt]
struct Greeting;

fn main() {}
