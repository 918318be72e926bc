use tool_executor::prelude::*;

/// Looks up the weather.
#[tool(name = "get weather")]
fn weather(city: String) -> String {
    city
}

fn main() {}
