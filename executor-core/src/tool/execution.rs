//! What every executor method returns: [`BoxFuture`], [`SpecList`] and [`ToolExecution`].

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use serde_json::Value;

use super::spec::ToolSpec;

/// A boxed, `Send` future: what every `ToolExecutor` method returns.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// The specs an executor serves, shared: cloning the list is one reference-count increment.
pub type SpecList = Arc<[Arc<ToolSpec>]>;

/// A successful call: the tool's output and the state changes it asks the runtime to apply.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ToolExecution {
    /// The tool's return value as JSON.
    pub output: Value,
    /// State changes the tool recorded (see [`ToolContext::record_state_change`](super::ToolContext::record_state_change)).
    pub state_changes: HashMap<String, Value>,
}

impl ToolExecution {
    /// An output with no state changes.
    #[must_use]
    #[inline]
    pub fn output_only(output: Value) -> Self {
        Self {
            output,
            state_changes: HashMap::new(),
        }
    }

    /// The output alone, the state changes dropped: a map that never allocated (every call
    /// that records nothing) without its destructor, which has nothing to free and which LLVM
    /// keeps out of line (measured in BENCHMARKS.md §5).
    #[must_use]
    #[inline]
    pub(crate) fn into_output(self) -> Value {
        let Self {
            output,
            state_changes,
        } = self;
        if state_changes.capacity() == 0 {
            std::mem::forget(state_changes);
        }
        output
    }
}
