use tool_executor::prelude::*;

/// A service.
#[derive(Clone)]
pub struct Service;

#[tools]
impl Service {
    /// Pings.
    #[tool]
    fn ping(&self) -> &'static str {
        "pong"
    }
}

fn main() {
    // `toolset!` takes `#[tool]` functions; an executor goes in `ToolSet::builder().executor(…)`.
    let _tools = toolset![Service];
}
