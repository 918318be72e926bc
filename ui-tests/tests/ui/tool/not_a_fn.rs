use tool_executor::prelude::*;

/// A struct is not a tool.
#[tool]
struct Weather;

fn main() {}
