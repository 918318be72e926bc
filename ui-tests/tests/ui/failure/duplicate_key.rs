use executor_core::prelude::*;

#[derive(Debug, ToolFailure)]
enum E {
    #[failure(code = "busy")]
    #[failure(code = "occupied")]
    Busy,
}

fn main() {}
