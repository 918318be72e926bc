use tool_executor::prelude::*;

struct Library;

#[prompts]
impl Library {
    /// Greets.
    #[prompt]
    fn greet(&self, name: String) -> String {
        name
    }

    /// Greets too.
    #[prompt(name = "greet")]
    fn hello(&self, name: String) -> String {
        name
    }
}

fn main() {}
