use tool_executor::prelude::*;

struct Notes;

#[resources]
impl Notes {
    /// A note.
    #[resource(template = "notes://{id}")]
    fn note(id: u32) -> String {
        id.to_string()
    }
}

fn main() {}
