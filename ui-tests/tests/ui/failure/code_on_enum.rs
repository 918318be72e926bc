use executor_core::prelude::*;

#[derive(Debug, ToolFailure)]
#[failure(code = "weather")]
enum E {
    Busy,
}

fn main() {}
