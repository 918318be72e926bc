use tool_executor::prelude::*;

#[derive(Debug, ToolFailure)]
enum E {
    #[failure(data)]
    Busy,
}

fn main() {}
