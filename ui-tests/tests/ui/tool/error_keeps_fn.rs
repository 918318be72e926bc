use tool_executor::prelude::*;

/// Looks up the weather.
#[tool(nmae = "get_weather")]
fn weather(city: String) -> String {
    city
}

fn main() {
    // Only the unknown key above is reported: the function is still emitted, and so is a
    // stand-in tool, so calling it, reading its spec and listing it in a set add no errors.
    let _: String = weather("Paris".to_owned());
    let _ = weather::spec;
    let _tools = toolset![weather];
}
