use tool_executor::prelude::*;

/// The readme. A resource returns a `String`, bytes or `ResourceContents`.
#[resource(uri = "docs://readme")]
fn readme() -> u32 {
    1
}

fn main() {}
