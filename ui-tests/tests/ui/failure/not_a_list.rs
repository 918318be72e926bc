use executor_core::prelude::*;

#[derive(Debug, ToolFailure)]
enum E {
    #[failure]
    Busy,
}

fn main() {}
