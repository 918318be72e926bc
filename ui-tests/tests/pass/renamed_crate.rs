//! With `crate = …` the macros reach the runtime through another path: here a module that
//! re-exports it under a different name.

mod runtime {
    pub use ::executor_core as exec;
}

use executor_core::ToolExecutor;

/// Adds.
#[executor_core::tool(crate = crate::runtime::exec)]
fn add(a: i64, b: i64) -> i64 {
    a + b
}

/// A service.
struct Service;

#[executor_core::tools(crate = crate::runtime::exec)]
impl Service {
    /// Pings.
    #[tool]
    fn ping(&self) -> u8 {
        1
    }
}

fn main() {
    let tools = executor_core::toolset!(crate = crate::runtime::exec; add);
    assert_eq!(tools.len(), 1);
    assert_eq!(Service.specs().len(), 1);
}
