//! Concurrency limits: per tool and overall, waiting callers served in arrival order.

use std::collections::HashMap;
use std::sync::Arc;

use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// The runtime's semaphores. Tokio's semaphore is fair (first come, first served), so a caller
/// waiting for a slot is never overtaken by a later one.
#[derive(Debug, Clone, Default)]
pub(super) struct Limits {
    overall: Option<Arc<Semaphore>>,
    per_tool: HashMap<String, Arc<Semaphore>>,
}

/// The slots one attempt holds; dropping it frees them.
#[derive(Debug)]
pub(super) struct Permits {
    _tool: Option<OwnedSemaphorePermit>,
    _overall: Option<OwnedSemaphorePermit>,
}

impl Limits {
    pub(super) fn set_overall(&mut self, max: usize) {
        self.overall = Some(Arc::new(Semaphore::new(max.max(1))));
    }

    pub(super) fn set_tool(&mut self, tool: impl Into<String>, max: usize) {
        self.per_tool
            .insert(tool.into(), Arc::new(Semaphore::new(max.max(1))));
    }

    /// Whether a call of `tool` may have to wait for a slot.
    #[inline]
    pub(super) fn applies_to(&self, tool: &str) -> bool {
        self.overall.is_some() || (!self.per_tool.is_empty() && self.per_tool.contains_key(tool))
    }

    /// Waits for a slot of `tool`, then for an overall one. The tool's slot comes first, so a
    /// caller queued behind a busy tool does not hold an overall slot other tools could use.
    pub(super) async fn acquire(&self, tool: &str) -> Permits {
        // The semaphores are never closed, so acquiring only fails if they were.
        let tool_permit = match self.per_tool.get(tool) {
            Some(semaphore) => Arc::clone(semaphore).acquire_owned().await.ok(),
            None => None,
        };
        let overall = match &self.overall {
            Some(semaphore) => Arc::clone(semaphore).acquire_owned().await.ok(),
            None => None,
        };
        Permits {
            _tool: tool_permit,
            _overall: overall,
        }
    }
}
