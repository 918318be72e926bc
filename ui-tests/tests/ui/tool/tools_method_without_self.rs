use tool_executor::prelude::*;

/// A service.
pub struct Service;

#[tools]
impl Service {
    /// Needs `&self`.
    #[tool]
    fn version() -> u8 {
        1
    }
}

fn main() {}
