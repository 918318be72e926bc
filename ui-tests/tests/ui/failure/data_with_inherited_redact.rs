use tool_executor::prelude::*;

#[derive(Debug, ToolFailure)]
#[failure(redact)]
enum E {
    #[failure(data)]
    Busy { queue: u32 },
}

fn main() {}
