//! car-engine 0.60 as far as `car_executor!` names it, without building car-engine (about 400
//! crates). `executor.rs` is the verbatim text of car-engine's `ToolExecutor` trait and
//! `ToolExecution` (`src/executor.rs`, from `/// Trait for tool execution.` to the end of
//! `impl ToolExecution`), and `Runtime::register_tool_schema` below has the real signature;
//! `.ci/car-check.sh` checks both against car-engine's source. The names the copy uses are
//! imported as car-engine's `executor.rs` imports them.
//!
//! `executor.rs` is copied from car-engine 0.60.0 (<https://github.com/Parslee-ai/car>,
//! Apache-2.0), unchanged.

use std::collections::HashMap;
use std::sync::Mutex;

use car_ir::{ToolFailure, ToolSchema};
use serde_json::Value;

include!("executor.rs");

/// car's `Runtime`, reduced to the one method `register_all` calls: it records the schemas.
#[derive(Default)]
pub struct Runtime {
    registered: Mutex<Vec<ToolSchema>>,
}

impl Runtime {
    /// The schemas registered so far, in order.
    pub fn registered(&self) -> Vec<ToolSchema> {
        self.registered.lock().unwrap().clone()
    }
}

impl Runtime {
    /// Register a tool with full schema.
    pub async fn register_tool_schema(&self, schema: ToolSchema) {
        self.registered.lock().unwrap().push(schema);
    }
}
