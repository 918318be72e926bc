use tool_executor::prelude::*;

struct Notes;

#[resources]
impl Notes {
    /// A note, not marked.
    fn note(&self) -> String {
        String::new()
    }
}

fn main() {}
