use tool_executor::prelude::*;

struct Library;

#[prompts]
impl Library {
    /// Greets.
    #[prompt(crate = ::tool_executor)]
    fn greet(&self, name: String) -> String {
        name
    }
}

fn main() {}
