use tool_executor::prelude::*;

#[derive(Debug, ToolFailure)]
enum E {
    #[failure(data)]
    Busy(#[failure(terminal)] u32),
}

fn main() {}
