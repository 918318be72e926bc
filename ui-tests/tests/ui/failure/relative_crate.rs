use tool_executor::prelude::*;

#[derive(Debug, ToolFailure)]
#[failure(crate = tool_executor)]
enum E {
    Busy,
}

fn main() {}
