use tool_executor::prelude::*;

#[derive(Debug, ToolFailure)]
enum E {
    #[failure(data, redact)]
    Busy { queue: u32 },
}

fn main() {}
