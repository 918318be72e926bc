use executor_core::prelude::*;

/// A service.
pub struct Service;

#[tools(krate = ::executor_core)]
impl Service {
    /// One.
    #[tool]
    fn one(&self) -> u8 {
        1
    }
}

fn main() {}
