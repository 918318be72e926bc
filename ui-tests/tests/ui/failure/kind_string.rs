use tool_executor::prelude::*;

#[derive(Debug, ToolFailure)]
enum E {
    #[failure(kind = "timeout")]
    Slow,
}

fn main() {}
