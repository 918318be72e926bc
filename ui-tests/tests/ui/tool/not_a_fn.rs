use executor_core::prelude::*;

/// A struct is not a tool.
#[tool]
struct Weather;

fn main() {}
