use tool_executor::prelude::*;

struct Library;

#[prompts]
impl Default for Library {
    fn default() -> Self {
        Library
    }
}

fn main() {}
