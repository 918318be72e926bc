use tool_executor::prelude::*;

struct Library;

#[prompts(name = "library")]
impl Library {
    /// Greets.
    #[prompt]
    fn greet(&self, name: String) -> String {
        name
    }
}

fn main() {}
