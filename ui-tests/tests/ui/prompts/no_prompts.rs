use tool_executor::prelude::*;

struct Library;

#[prompts]
impl Library {
    /// Greets, but is not marked.
    fn greet(&self, name: String) -> String {
        name
    }
}

fn main() {}
