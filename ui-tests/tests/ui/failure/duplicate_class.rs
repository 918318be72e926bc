use tool_executor::prelude::*;

#[derive(Debug, ToolFailure)]
enum E {
    #[failure(terminal)]
    #[failure(terminal, code = "busy")]
    Busy,
}

fn main() {}
