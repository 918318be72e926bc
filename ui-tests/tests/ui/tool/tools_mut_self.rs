use tool_executor::prelude::*;

/// A service.
pub struct Service {
    hits: u64,
}

#[tools]
impl Service {
    /// Mutates.
    #[tool]
    fn hit(&mut self) -> u64 {
        self.hits += 1;
        self.hits
    }
}

fn main() {}
