use tool_executor::prelude::*;

/// Adds.
#[tool]
fn add(a: i64, b: i64) -> i64 {
    a + b
}

fn main() {
    // Only the repeated path is reported: the macro still builds a (empty) set, so code that
    // uses it adds no errors.
    let tools = toolset![add, add];
    let _: usize = tools.len();
}
