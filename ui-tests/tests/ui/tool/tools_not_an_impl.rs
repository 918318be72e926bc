use tool_executor::prelude::*;

/// Not an impl block.
#[tools]
fn ping() -> &'static str {
    "pong"
}

fn main() {
    // Only the misplaced attribute is reported: the function is still emitted.
    let _: &str = ping();
}
