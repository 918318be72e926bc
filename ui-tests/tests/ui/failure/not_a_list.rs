use tool_executor::prelude::*;

#[derive(Debug, ToolFailure)]
enum E {
    #[failure]
    Busy,
}

fn main() {}
