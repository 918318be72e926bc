use tool_executor::prelude::*;

/// Greets. An optional argument is `#[arg(default)]` (or an `Option<T>`).
#[tool]
fn greet(#[arg(optional)] excited: bool) -> bool {
    excited
}

fn main() {}
