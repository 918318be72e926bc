use tool_executor::prelude::*;

#[derive(Debug, ToolFailure)]
enum E {
    Busy {
        #[failure(skip)]
        queue: u32,
    },
}

fn main() {}
