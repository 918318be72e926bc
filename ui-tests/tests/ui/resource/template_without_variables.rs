use tool_executor::prelude::*;

/// The readme.
#[resource(template = "docs://readme")]
fn readme() -> String {
    "hi".into()
}

fn main() {}
