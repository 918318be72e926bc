use tool_executor::prelude::*;

#[derive(Debug, ToolFailure)]
enum E {
    #[failure(kind = unknown_tool)]
    NotMine,
}

fn main() {}
