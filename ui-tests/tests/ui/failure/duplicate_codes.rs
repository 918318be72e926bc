use tool_executor::prelude::*;

#[derive(Debug, ToolFailure)]
enum E {
    NotFound,
    #[failure(code = "not_found")]
    Missing,
}

fn main() {}
