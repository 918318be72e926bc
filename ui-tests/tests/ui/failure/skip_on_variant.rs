use tool_executor::prelude::*;

#[derive(Debug, ToolFailure)]
enum E {
    #[failure(skip)]
    Busy,
}

fn main() {}
