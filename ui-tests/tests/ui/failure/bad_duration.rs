use executor_core::prelude::*;

#[derive(Debug, ToolFailure)]
enum E {
    #[failure(retry_after = "soon")]
    Busy,
}

fn main() {}
