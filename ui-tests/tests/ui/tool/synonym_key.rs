use tool_executor::prelude::*;

/// Looks up the weather. MCP calls the hint `readOnlyHint`; the key is `read_only`.
#[tool(readOnlyHint)]
fn weather(city: String) -> String {
    city
}

fn main() {}
