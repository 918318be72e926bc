//! Named lifetimes on tool fns and generic `#[tools]` impls are supported.

use std::marker::PhantomData;

use tool_executor::prelude::*;

/// Picks the longer string.
#[tool]
fn longest<'a>(a: &'a str, b: &'a str) -> &'a str {
    if a.len() >= b.len() { a } else { b }
}

/// A generic service.
struct Store<T: Send + Sync + 'static> {
    _marker: PhantomData<T>,
}

#[tools]
impl<T> Store<T>
where
    T: Send + Sync + 'static,
{
    /// Counts.
    #[tool]
    fn count(&self, #[arg(default)] extra: u8) -> u8 {
        extra
    }
}

fn main() {
    let _ = toolset![longest];
    let store = Store::<String> { _marker: PhantomData };
    assert_eq!(store.specs()[0].name, "count");
}
