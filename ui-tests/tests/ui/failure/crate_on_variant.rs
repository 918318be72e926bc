use executor_core::prelude::*;

#[derive(Debug, ToolFailure)]
enum E {
    #[failure(crate = ::executor_core)]
    Busy,
}

fn main() {}
