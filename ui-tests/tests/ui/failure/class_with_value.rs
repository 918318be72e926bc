use executor_core::prelude::*;

#[derive(Debug, ToolFailure)]
enum E {
    #[failure(terminal = true)]
    Busy,
}

fn main() {}
