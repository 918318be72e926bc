//! Tasks: calls that outlive their request.
//!
//! One model for every protocol that has them. A task's call runs as a
//! [`Handle`](crate::runtime::Handle), the same detached call
//! [`Runtime::spawn`](crate::runtime::Runtime::spawn) returns (the task's id is the handle's
//! id); its [`TaskRecord`] (status, status message, result or error, input requests, times,
//! TTL, poll interval) is what a [`TaskStore`] keeps and what `tasks/get` reads.
//! [`Tasks`] starts calls as tasks and reads and cancels them.
//!
//! A tool says whether it may run as a task with `#[tool(task = "optional")]` or
//! `#[tool(task = "required")]`, optionally with `ttl = "10m"` and `poll = "2s"`
//! ([`TaskSpec`] on its [`ToolSpec`](crate::tool::ToolSpec)). [`McpServer`](crate::mcp::McpServer)
//! (feature `mcp`) serves such tools as MCP tasks.
//!
//! ```
//! use tool_executor::prelude::*;
//! use tool_executor::task::TaskSupport;
//!
//! /// Writes a long report.
//! #[tool(task = "required", ttl = "10m", poll = "2s")]
//! async fn report(seconds: u64) -> String {
//!     format!("report after {seconds} s")
//! }
//!
//! let spec = report::spec();
//! let task = spec.task.unwrap();
//! assert_eq!(task.support, TaskSupport::Required);
//! assert_eq!(task.ttl, Some(std::time::Duration::from_secs(600)));
//! ```

mod ask;
mod memory;
#[cfg(feature = "task-postgres")]
mod postgres;
mod record;
mod run;
mod store;
mod support;

pub use memory::{DEFAULT_MAX_TASKS, MemoryTaskStore};
#[cfg(feature = "task-postgres")]
#[cfg_attr(docsrs, doc(cfg(feature = "task-postgres")))]
pub use postgres::{DEFAULT_REPLICA_TIMEOUT, PostgresTaskStore};
pub use record::{TaskId, TaskOutcome, TaskRecord, TaskStatus, iso8601};
pub use run::{DEFAULT_POLL_INTERVAL, DEFAULT_TASK_TTL, Finish, MAX_TASK_TTL, TaskError, Tasks};
pub use store::{StoreError, TaskStore};
pub use support::{TaskSpec, TaskSupport};
