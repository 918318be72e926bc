use executor_core::prelude::*;

/// Takes the context mutably.
#[tool]
fn mutate(ctx: &mut ToolContext) -> u32 {
    ctx.attempt()
}

fn main() {}
