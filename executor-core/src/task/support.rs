//! What a tool declares about running as a task: [`TaskSupport`] and [`TaskSpec`], carried by
//! [`ToolSpec::task`](crate::tool::ToolSpec::task) and written `#[tool(task = …)]`.

use std::time::Duration;

use serde::{Deserialize, Serialize};

/// Whether a call of the tool may run as a task (MCP 2025-11-25's `execution.taskSupport`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TaskSupport {
    /// Never a task: every call answers in its own request.
    #[default]
    Forbidden,
    /// A task when the client declared the tasks extension on the call, else a plain call.
    Optional,
    /// Only as a task: a client that did not declare the extension gets JSON-RPC error -32021.
    Required,
}

/// A tool's task settings: whether it runs as a task, how long a task is kept, and how often a
/// client should poll it.
///
/// ```
/// use std::time::Duration;
/// use tool_executor::task::{TaskSpec, TaskSupport};
///
/// let spec = TaskSpec::new(TaskSupport::Required)
///     .with_ttl(Duration::from_secs(600))
///     .with_poll_interval(Duration::from_secs(2));
/// assert_eq!(spec.ttl, Some(Duration::from_secs(600)));
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct TaskSpec {
    /// Whether a call may, or must, run as a task.
    pub support: TaskSupport,
    /// How long a task lives from its creation: its deadline, and when it is forgotten
    /// (`ttlMs`). `None` is the server's default ([`DEFAULT_TASK_TTL`](super::DEFAULT_TASK_TTL)).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        rename = "ttlMs",
        with = "crate::millis"
    )]
    pub ttl: Option<Duration>,
    /// How often a client should poll (`pollIntervalMs`). `None` is the server's default
    /// ([`DEFAULT_POLL_INTERVAL`](super::DEFAULT_POLL_INTERVAL)).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        rename = "pollIntervalMs",
        with = "crate::millis"
    )]
    pub poll_interval: Option<Duration>,
}

impl TaskSpec {
    /// Settings with the server's default TTL and poll interval.
    #[must_use]
    pub const fn new(support: TaskSupport) -> Self {
        Self {
            support,
            ttl: None,
            poll_interval: None,
        }
    }

    /// Sets the TTL.
    #[must_use]
    pub const fn with_ttl(mut self, ttl: Duration) -> Self {
        self.ttl = Some(ttl);
        self
    }

    /// Sets the poll interval.
    #[must_use]
    pub const fn with_poll_interval(mut self, interval: Duration) -> Self {
        self.poll_interval = Some(interval);
        self
    }
}
