use tool_executor::prelude::*;

struct Notes;

impl Notes {
    /// A note.
    #[resource(uri = "notes://one")]
    fn note(&self) -> String {
        String::new()
    }
}

fn main() {}
