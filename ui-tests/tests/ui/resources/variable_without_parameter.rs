use tool_executor::prelude::*;

struct Notes;

#[resources]
impl Notes {
    /// A note.
    #[resource(template = "notes://{id}")]
    fn note(&self, name: String) -> String {
        name
    }
}

fn main() {}
