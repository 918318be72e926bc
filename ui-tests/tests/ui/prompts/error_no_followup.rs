use tool_executor::catalog::Catalog;
use tool_executor::prelude::*;

struct Library;

#[prompts]
impl Library {
    #[prompt]
    fn greet(&self, name: String) -> String {
        name
    }
}

fn main() {
    // The block's error stands alone: its value still joins a catalog.
    let _ = Catalog::new().with_prompts(Library);
}
