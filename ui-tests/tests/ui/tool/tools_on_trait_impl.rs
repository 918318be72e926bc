use tool_executor::prelude::*;

/// A service.
pub struct Service;

#[tools]
impl Default for Service {
    fn default() -> Self {
        Service
    }
}

fn main() {}
