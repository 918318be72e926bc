use tool_executor::prelude::*;

#[derive(Debug, ToolFailure)]
enum E {
    Café,
}

fn main() {}
