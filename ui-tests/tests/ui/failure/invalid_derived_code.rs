use executor_core::prelude::*;

#[derive(Debug, ToolFailure)]
enum E {
    Café,
}

fn main() {}
