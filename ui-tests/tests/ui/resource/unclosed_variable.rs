use tool_executor::prelude::*;

/// A note.
#[resource(template = "notes://{id")]
fn note(id: String) -> String {
    id
}

fn main() {}
