//! Where tasks are kept: the [`TaskStore`] trait. [`MemoryTaskStore`](super::MemoryTaskStore)
//! is the default; a store shared by replicas implements the same trait.

use std::fmt;
use std::time::SystemTime;

use super::record::{TaskId, TaskRecord};
use crate::tool::BoxFuture;

/// Keeps task records. Every method is a suspension point, so a store may be a database.
///
/// Rules every store keeps:
/// - [`create`](Self::create) returns only once a [`get`](Self::get) for the task (from any
///   replica sharing the store) would find it: a server answers the call with the task only
///   after `create` returned.
/// - A terminal record ([`TaskStatus::is_terminal`](super::TaskStatus::is_terminal)) is never
///   replaced: [`update`](Self::update) of a task already terminal changes nothing and returns
///   `false`.
/// - A record past its TTL is never returned by `get`.
pub trait TaskStore: Send + Sync + 'static {
    /// Keeps a new task.
    ///
    /// # Errors
    /// [`StoreError::Full`] when the store is at its bound; [`StoreError::Backend`] when it
    /// cannot write.
    fn create(&self, record: TaskRecord) -> BoxFuture<'_, Result<(), StoreError>>;

    /// The task, unless unknown or past its TTL.
    ///
    /// # Errors
    /// [`StoreError::Backend`] when it cannot read.
    fn get(&self, id: TaskId) -> BoxFuture<'_, Result<Option<TaskRecord>, StoreError>>;

    /// Replaces a task that is not terminal; `false` when it was unknown, expired or terminal.
    ///
    /// # Errors
    /// [`StoreError::Backend`] when it cannot write.
    fn update(&self, record: TaskRecord) -> BoxFuture<'_, Result<bool, StoreError>>;

    /// Forgets every task past its TTL at `now`, returning the ids of those that were not
    /// terminal (their calls must be cancelled).
    ///
    /// # Errors
    /// [`StoreError::Backend`] when it cannot write.
    fn sweep(&self, now: SystemTime) -> BoxFuture<'_, Result<Vec<TaskId>, StoreError>>;
}

/// Why a store could not do what was asked.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum StoreError {
    /// The store holds as many unfinished tasks as it may.
    Full {
        /// The bound.
        limit: usize,
    },
    /// The backend failed (a database error, in its words).
    Backend(String),
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Full { limit } => write!(
                f,
                "too many tasks: {limit} are running; wait for one to end or cancel one"
            ),
            Self::Backend(why) => write!(f, "task store failed: {why}"),
        }
    }
}

impl std::error::Error for StoreError {}
