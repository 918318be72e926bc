use executor_core::prelude::*;

#[derive(Debug, ToolFailure)]
enum E {
    #[failure(data)]
    Busy,
}

fn main() {}
