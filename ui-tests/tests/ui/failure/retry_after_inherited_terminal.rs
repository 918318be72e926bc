use tool_executor::prelude::*;

#[derive(Debug, ToolFailure)]
#[failure(terminal)]
enum E {
    #[failure(retry_after = "1s")]
    Busy,
}

fn main() {}
