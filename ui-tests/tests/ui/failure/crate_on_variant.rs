use tool_executor::prelude::*;

#[derive(Debug, ToolFailure)]
enum E {
    #[failure(crate = ::tool_executor)]
    Busy,
}

fn main() {}
