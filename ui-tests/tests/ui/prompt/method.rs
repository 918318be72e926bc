use tool_executor::prelude::*;

struct Greeter;

impl Greeter {
    /// Greets.
    #[prompt]
    fn greet(&self) -> String {
        "hi".into()
    }
}

fn main() {}
