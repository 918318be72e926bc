use tool_executor::prelude::*;

#[derive(Debug, ToolFailure)]
enum E {
    #[failure(data)]
    Busy(#[failure(skip)] u32),
}

fn main() {}
