use tool_executor::prelude::*;

#[derive(Debug, ToolFailure)]
enum E {
    #[failure(redact = "yes")]
    Busy,
}

fn main() {}
