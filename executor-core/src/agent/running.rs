//! The calls a [`ToolAgent`](super::ToolAgent) is running, each a [`runtime::Handle`]: the
//! object a [`Runtime::spawn`](crate::runtime::Runtime::spawn) call and an MCP task
//! ([`crate::task::Tasks`]) run as, started by the same `Handle::detached`/`start`.

use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use crate::runtime::Handle;

/// The tool calls an agent's A2A tasks are running, by A2A task id: each a
/// [`Handle`] (its status, last progress message, chunks, outcome, and cancellation) while the
/// task's turn runs. Take it from [`ToolAgent::running_calls`](super::ToolAgent::running_calls)
/// before binding the agent; clones share one table.
///
/// The task's record stays the A2A server's (its task store, shared by replicas); the handle is
/// the call this process runs for it. Cancelling the handle cancels the tool and ends the
/// task `canceled`; cancelling the task (`CancelTask`) cancels the handle.
#[derive(Clone, Default)]
pub struct RunningCalls {
    calls: Arc<Mutex<HashMap<String, Handle>>>,
}

impl fmt::Debug for RunningCalls {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RunningCalls")
            .field("running", &self.len())
            .finish()
    }
}

impl RunningCalls {
    /// The call the A2A task `task_id` runs in this process, while it runs.
    #[must_use]
    pub fn get(&self, task_id: &str) -> Option<Handle> {
        self.table().get(task_id).cloned()
    }

    /// How many calls are running.
    #[must_use]
    pub fn len(&self) -> usize {
        self.table().len()
    }

    /// Whether no call is running.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.table().is_empty()
    }

    /// Registers `handle` as `task_id`'s call until the guard drops, which also cancels it
    /// (a no-op once it ended), so a turn that ends early never leaves its call running.
    pub(super) fn start(&self, task_id: &str, handle: &Handle) -> Running {
        self.table().insert(task_id.to_owned(), handle.clone());
        Running {
            calls: self.clone(),
            task_id: task_id.to_owned(),
            handle: handle.clone(),
        }
    }

    fn table(&self) -> MutexGuard<'_, HashMap<String, Handle>> {
        self.calls.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// A running call's place in [`RunningCalls`].
pub(super) struct Running {
    calls: RunningCalls,
    task_id: String,
    handle: Handle,
}

impl Drop for Running {
    fn drop(&mut self) {
        self.handle.cancel();
        let mut table = self.calls.table();
        if table
            .get(&self.task_id)
            .is_some_and(|h| h.id() == self.handle.id())
        {
            table.remove(&self.task_id);
        }
    }
}
