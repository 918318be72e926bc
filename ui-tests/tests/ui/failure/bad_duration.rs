use tool_executor::prelude::*;

#[derive(Debug, ToolFailure)]
enum E {
    #[failure(retry_after = "soon")]
    Busy,
}

fn main() {}
