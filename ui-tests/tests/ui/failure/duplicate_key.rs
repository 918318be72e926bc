use tool_executor::prelude::*;

#[derive(Debug, ToolFailure)]
enum E {
    #[failure(code = "busy")]
    #[failure(code = "occupied")]
    Busy,
}

fn main() {}
