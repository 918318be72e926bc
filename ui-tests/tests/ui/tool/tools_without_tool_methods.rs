use tool_executor::prelude::*;

/// A service.
pub struct Service;

#[tools]
impl Service {
    /// Not marked.
    pub fn helper(&self) -> u8 {
        1
    }
}

fn main() {}
