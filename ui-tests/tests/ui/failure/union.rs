use tool_executor::prelude::*;

#[derive(ToolFailure)]
union E {
    code: u32,
    bits: f32,
}

fn main() {}
