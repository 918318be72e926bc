use tool_executor::prelude::*;

#[derive(Debug, ToolFailure)]
enum E {
    #[failure(code = not_found)]
    Missing,
}

fn main() {}
