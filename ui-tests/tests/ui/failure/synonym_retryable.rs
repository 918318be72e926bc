use executor_core::prelude::*;

// `retryable` is `ordinary` (the default class).
#[derive(Debug, ToolFailure)]
enum E {
    #[failure(retryable)]
    Busy,
}

fn main() {}
