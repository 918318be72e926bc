use tool_executor::prelude::*;

/// A note.
#[resource(template = "notes://{id}")]
fn note(id: String, verbose: bool) -> String {
    format!("{id} {verbose}")
}

fn main() {}
