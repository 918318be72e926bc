use tool_executor::prelude::*;

/// Reads the attempt. The context is lent for the call: take `&ToolContext`.
#[tool]
fn attempt(ctx: ToolContext) -> u32 {
    ctx.attempt()
}

fn main() {}
