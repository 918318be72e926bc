use tool_executor::prelude::*;

#[derive(Debug, ToolFailure)]
#[failure(unhandled, retry_after = "1s")]
enum E {
    Busy,
    Gone,
}

fn main() {}
