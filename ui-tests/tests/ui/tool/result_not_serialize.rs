use tool_executor::prelude::*;

/// Described to the model, but not encodable.
#[derive(schemars::JsonSchema)]
pub struct Reply {
    pub text: String,
}

/// Replies.
#[tool]
fn reply() -> Reply {
    Reply { text: String::new() }
}

fn main() {}
