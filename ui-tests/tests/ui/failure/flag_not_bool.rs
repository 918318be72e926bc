use executor_core::prelude::*;

#[derive(Debug, ToolFailure)]
enum E {
    #[failure(redact = "yes")]
    Busy,
}

fn main() {}
