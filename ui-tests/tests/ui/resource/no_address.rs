use tool_executor::prelude::*;

/// The readme.
#[resource(mime_type = "text/plain")]
fn readme() -> String {
    "hi".into()
}

fn main() {}
