use tool_executor::prelude::*;

// `fatal` is what other libraries call a failure that must not be retried: here `terminal`.
#[derive(Debug, ToolFailure)]
enum E {
    #[failure(fatal)]
    Gone,
}

fn main() {}
