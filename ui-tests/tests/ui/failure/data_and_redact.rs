use executor_core::prelude::*;

#[derive(Debug, ToolFailure)]
enum E {
    #[failure(data, redact)]
    Busy { queue: u32 },
}

fn main() {}
