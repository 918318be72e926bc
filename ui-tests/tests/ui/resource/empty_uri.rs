use tool_executor::prelude::*;

/// The readme.
#[resource(uri = "")]
fn readme() -> String {
    "hi".into()
}

fn main() {}
