use tool_executor::prelude::*;

struct Library;

#[prompts]
impl Library {
    /// Greets.
    #[prompt]
    fn greet(name: String) -> String {
        name
    }
}

fn main() {}
