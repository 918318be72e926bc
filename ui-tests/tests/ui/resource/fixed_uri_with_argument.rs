use tool_executor::prelude::*;

/// A note.
#[resource(uri = "notes://1")]
fn note(id: String) -> String {
    id
}

fn main() {}
