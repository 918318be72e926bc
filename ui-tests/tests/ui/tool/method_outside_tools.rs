use tool_executor::prelude::*;

/// A counter.
pub struct Counter;

impl Counter {
    /// Counts.
    #[tool]
    pub async fn hit(&self, by: u64) -> u64 {
        by
    }
}

fn main() {}
