use tool_executor::prelude::*;

#[derive(Debug, ToolFailure)]
enum E {
    #[failure(kind = network)]
    Busy,
}

fn main() {}
