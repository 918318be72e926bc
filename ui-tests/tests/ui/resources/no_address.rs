use tool_executor::prelude::*;

struct Notes;

#[resources]
impl Notes {
    /// A note.
    #[resource(mime_type = "text/plain")]
    fn note(&self) -> String {
        String::new()
    }
}

fn main() {}
