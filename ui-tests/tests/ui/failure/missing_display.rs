use executor_core::prelude::*;

#[derive(Debug, ToolFailure)]
enum E {
    Busy,
}

fn main() {}
