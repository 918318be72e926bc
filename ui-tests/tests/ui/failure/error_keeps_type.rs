use tool_executor::failure::FailureCodes;
use tool_executor::prelude::*;

#[derive(Debug, ToolFailure)]
enum LookupError {
    #[failure(retry_afer = "1s")]
    Busy,
}

impl std::fmt::Display for LookupError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("busy")
    }
}

fn main() {
    // Only the unknown key above is reported: rustc keeps the enum, and the derive still
    // emits stand-in impls, so converting it and listing its codes add no errors.
    let failure: ToolFailure = LookupError::Busy.into();
    let _ = failure;
    let _ = LookupError::FAILURE_CODES;
    println!("{}", LookupError::Busy);
}
