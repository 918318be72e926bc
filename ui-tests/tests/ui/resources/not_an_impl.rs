use tool_executor::prelude::*;

/// Resources come from an impl block's methods.
#[resources]
struct Notes;

fn main() {}
