use tool_executor::prelude::*;

// `retryable` is `ordinary` (the default class).
#[derive(Debug, ToolFailure)]
enum E {
    #[failure(retryable)]
    Busy,
}

fn main() {}
