use tool_executor::prelude::*;

#[derive(Debug, ToolFailure)]
enum E {
    #[failure(terminal = true)]
    Busy,
}

fn main() {}
