use tool_executor::prelude::*;

#[derive(Debug, ToolFailure)]
enum E {
    Busy,
}

fn main() {}
