use tool_executor::prelude::*;

/// The readme.
#[resource(uri = "docs://readme", mimetype = "text/plain")]
fn readme() -> String {
    "hi".into()
}

fn main() {}
