use executor_core::prelude::*;

#[derive(Debug, ToolFailure)]
enum E {
    #[failure(kind = "timeout")]
    Slow,
}

fn main() {}
