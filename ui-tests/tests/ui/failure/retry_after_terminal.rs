use tool_executor::prelude::*;

#[derive(Debug, ToolFailure)]
enum E {
    #[failure(terminal, retry_after = "1s")]
    Busy,
}

fn main() {}
