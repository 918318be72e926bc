use executor_core::prelude::*;

#[derive(Debug, ToolFailure)]
#[failure(crate = executor_core)]
enum E {
    Busy,
}

fn main() {}
