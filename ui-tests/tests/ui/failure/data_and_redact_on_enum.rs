use tool_executor::prelude::*;

#[derive(Debug, ToolFailure)]
#[failure(data, redact)]
enum E {
    Busy { queue: u32 },
}

fn main() {}
