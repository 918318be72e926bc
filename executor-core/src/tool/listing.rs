//! When an executor's listing changes at run time: [`ListChanges`], what
//! [`ToolExecutor::list_changes`](super::ToolExecutor::list_changes) hands a server so it can tell
//! its clients (`notifications/tools/list_changed` over MCP).

use tokio::sync::watch;

/// A subscription to an executor's listing changes: each [`changed`](Self::changed) waits for
/// the next change. Changes made while nobody waits are folded into one, so a slow subscriber
/// never queues more than one.
///
/// ```
/// use tool_executor::prelude::*;
/// use tool_executor::transform::{Transform, Visibility};
///
/// /// Adds two numbers.
/// #[tool]
/// fn add(a: i64, b: i64) -> i64 { a + b }
///
/// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
/// let visibility = Visibility::new();
/// let tools = Transform::new(toolset![add]).visibility(visibility.clone()).build().unwrap();
/// let mut changes = tools.list_changes().expect("visibility can change the listing");
/// visibility.disable("add");
/// assert!(changes.changed().await);
/// assert!(tools.specs().is_empty());
/// # });
/// ```
#[derive(Debug, Clone)]
pub struct ListChanges {
    rx: watch::Receiver<u64>,
}

impl ListChanges {
    pub(crate) fn new(rx: watch::Receiver<u64>) -> Self {
        Self { rx }
    }

    /// Waits for the next change; `false` once the source is gone (nothing can change any
    /// more).
    pub async fn changed(&mut self) -> bool {
        self.rx.changed().await.is_ok()
    }
}
