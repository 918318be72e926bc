use tool_executor::prelude::*;

#[derive(Debug, ToolFailure)]
#[failure(code = "weather")]
enum E {
    Busy,
}

fn main() {}
