use tool_executor::prelude::*;

/// A service.
pub struct Service;

#[tools]
impl Service {
    /// Takes `self` by value, which a tool method cannot.
    #[tool]
    fn ping(self) -> &'static str {
        "pong"
    }
}

fn main() {
    // Only the receiver above is reported, not that `Service` is not an executor.
    let _tools = ToolSet::builder().executor(Service).build();
}
