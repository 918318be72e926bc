use tool_executor::prelude::*;

#[derive(Debug, ToolFailure)]
enum E {
    #[failure(retry_after = "0ms")]
    Busy,
}

fn main() {}
