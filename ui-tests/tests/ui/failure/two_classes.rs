use tool_executor::prelude::*;

#[derive(Debug, ToolFailure)]
enum E {
    #[failure(terminal, ordinary)]
    Busy,
}

fn main() {}
