use tool_executor::prelude::*;

#[derive(Debug, ToolFailure)]
enum E {
    #[failure(retry_after = 200)]
    Busy,
}

fn main() {}
