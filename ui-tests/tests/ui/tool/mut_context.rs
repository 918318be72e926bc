use tool_executor::prelude::*;

/// Takes the context mutably.
#[tool]
fn mutate(ctx: &mut ToolContext) -> u32 {
    ctx.attempt()
}

fn main() {}
