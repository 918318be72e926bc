use tool_executor::prelude::*;

/// Looks up the weather.
#[tool(name = "get weather")]
fn weather(city: String) -> String {
    city
}

fn main() {
    // Only the invalid name above is reported, not this use of the tool.
    let _tools = toolset![weather];
}
