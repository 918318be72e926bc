use tool_executor::prelude::*;

#[derive(Debug, ToolFailure)]
enum E {
    #[failure(retry_after = "99999999999999999h")]
    Busy,
}

fn main() {}
