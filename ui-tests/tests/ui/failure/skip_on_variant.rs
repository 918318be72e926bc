use executor_core::prelude::*;

#[derive(Debug, ToolFailure)]
enum E {
    #[failure(skip)]
    Busy,
}

fn main() {}
