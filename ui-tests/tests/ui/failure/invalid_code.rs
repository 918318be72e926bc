use tool_executor::prelude::*;

#[derive(Debug, ToolFailure)]
enum E {
    #[failure(code = "Not-Found")]
    Missing,
}

fn main() {}
