use executor_core::prelude::*;

/// Looks up the weather.
#[tool(name = "get weather")]
fn weather(city: String) -> String {
    city
}

fn main() {}
