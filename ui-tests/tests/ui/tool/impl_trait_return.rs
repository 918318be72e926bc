use tool_executor::prelude::*;

/// Returns something.
#[tool]
fn something() -> impl serde::Serialize {
    1
}

fn main() {}
