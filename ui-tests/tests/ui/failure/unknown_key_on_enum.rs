use tool_executor::prelude::*;

#[derive(Debug, ToolFailure)]
#[failure(terminal, colour = "red")]
enum E {
    Busy,
}

fn main() {}
