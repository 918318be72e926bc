//! A car user's crate: it depends on car-engine 0.60 and async-trait, and expands the bridge.
//! `tests/runtime.rs` runs these tools inside car's own `Runtime`.

/// The tools both bridge tests run (they live with `tool-executor`'s own bridge test).
#[path = "../../../executor-core/tests/car_tools/mod.rs"]
pub mod tools;

tool_executor::car_executor!(
    /// Our tools, as car-engine's `ToolExecutor`.
    pub CarTools
);
