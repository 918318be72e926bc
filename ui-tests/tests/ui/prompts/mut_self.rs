use tool_executor::prelude::*;

struct Library;

#[prompts]
impl Library {
    /// Greets.
    #[prompt]
    fn greet(&mut self, name: String) -> String {
        name
    }
}

fn main() {}
