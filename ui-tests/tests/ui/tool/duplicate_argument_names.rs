use tool_executor::prelude::*;

/// Copies.
#[tool]
fn copy(from: String, #[arg(rename = "from")] to: String) -> String {
    from + &to
}

fn main() {}
