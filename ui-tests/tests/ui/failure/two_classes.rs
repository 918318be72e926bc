use executor_core::prelude::*;

#[derive(Debug, ToolFailure)]
enum E {
    #[failure(terminal, ordinary)]
    Busy,
}

fn main() {}
