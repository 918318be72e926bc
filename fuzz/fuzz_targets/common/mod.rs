//! What several targets share: arbitrary JSON, one runtime per process, a checked `add`.
#![allow(dead_code)] // each target uses a part

use std::sync::LazyLock;

use tool_executor::prelude::*;

pub mod json;

/// One current-thread runtime for the whole run (a new one per input would dominate it).
pub static RUNTIME: LazyLock<tokio::runtime::Runtime> = LazyLock::new(|| {
    tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .unwrap()
});

/// Adds; overflow is a typed failure.
#[tool]
pub fn add(a: i64, b: i64) -> Result<i64, ToolFailure> {
    a.checked_add(b)
        .ok_or_else(|| ToolFailure::terminal("overflow").with_code("overflow"))
}
