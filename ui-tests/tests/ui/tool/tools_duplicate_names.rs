use tool_executor::prelude::*;

/// A service.
pub struct Service;

#[tools]
impl Service {
    /// One.
    #[tool(name = "get")]
    fn one(&self) -> u8 {
        1
    }

    /// Two.
    #[tool(name = "get")]
    fn two(&self) -> u8 {
        2
    }
}

fn main() {}
