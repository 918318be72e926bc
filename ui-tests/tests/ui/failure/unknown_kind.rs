use executor_core::prelude::*;

#[derive(Debug, ToolFailure)]
enum E {
    #[failure(kind = network)]
    Busy,
}

fn main() {}
