use tool_executor::prelude::*;

#[derive(Debug, ToolFailure)]
enum E {
    #[failure(kind = internal, data)]
    Broken { detail: String },
}

fn main() {}
