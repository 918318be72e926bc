use tool_executor::prelude::*;

/// A service.
pub struct Service;

#[tools(krate = ::tool_executor)]
impl Service {
    /// One.
    #[tool]
    fn one(&self) -> u8 {
        1
    }
}

fn main() {}
