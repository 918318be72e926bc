//! With `crate = …` the macros reach the runtime through another path: here a module that
//! re-exports it under a different name.

mod runtime {
    pub use ::tool_executor as exec;
}

use tool_executor::ToolExecutor;

/// Adds.
#[tool_executor::tool(crate = crate::runtime::exec)]
fn add(a: i64, b: i64) -> i64 {
    a + b
}

/// A service.
struct Service;

#[tool_executor::tools(crate = crate::runtime::exec)]
impl Service {
    /// Pings.
    #[tool]
    fn ping(&self) -> u8 {
        1
    }
}

fn main() {
    let tools = tool_executor::toolset!(crate = crate::runtime::exec; add);
    assert_eq!(tools.len(), 1);
    assert_eq!(Service.specs().len(), 1);
}
