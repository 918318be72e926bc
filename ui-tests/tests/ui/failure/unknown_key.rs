use tool_executor::prelude::*;

#[derive(Debug, ToolFailure)]
enum E {
    #[failure(retyr_after = "1s")]
    Busy,
}

// The fallback impl keeps conversions type-checking: only the attribute is reported.
fn convert(e: E) -> ToolFailure {
    e.into()
}

fn main() {
    let _ = convert;
}
