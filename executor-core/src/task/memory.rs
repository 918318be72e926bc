//! [`MemoryTaskStore`]: tasks in this process, bounded, forgotten at their TTL.

use std::collections::{BTreeSet, HashMap, VecDeque};
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::SystemTime;

use super::record::{TaskId, TaskRecord};
use super::store::{StoreError, TaskStore};
use crate::tool::BoxFuture;

/// How many tasks a [`MemoryTaskStore`] keeps unless told otherwise.
pub const DEFAULT_MAX_TASKS: usize = 10_000;

/// Tasks in this process: the default store. Holds at most `max` tasks; when full, the oldest
/// finished task is forgotten for a new one, and with none finished creation fails with
/// [`StoreError::Full`]. Tasks past their TTL are swept on every use.
#[derive(Debug)]
pub struct MemoryTaskStore {
    max: usize,
    inner: Mutex<Entries>,
}

#[derive(Debug, Default)]
struct Entries {
    records: HashMap<TaskId, TaskRecord>,
    /// Every task by when it expires.
    expiries: BTreeSet<(SystemTime, TaskId)>,
    /// Finished tasks, oldest first (may name tasks already swept).
    finished: VecDeque<TaskId>,
}

impl Default for MemoryTaskStore {
    fn default() -> Self {
        Self::new(DEFAULT_MAX_TASKS)
    }
}

impl MemoryTaskStore {
    /// A store of at most `max` tasks (at least one).
    #[must_use]
    pub fn new(max: usize) -> Self {
        Self {
            max: max.max(1),
            inner: Mutex::new(Entries::default()),
        }
    }

    /// How many tasks it holds now (swept first).
    #[must_use]
    pub fn len(&self) -> usize {
        self.entries(SystemTime::now()).0.records.len()
    }

    /// Whether it holds none.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The entries, swept at `now`, and the ids of unfinished tasks the sweep forgot.
    fn entries(&self, now: SystemTime) -> (MutexGuard<'_, Entries>, Vec<TaskId>) {
        let mut entries = self.inner.lock().unwrap_or_else(PoisonError::into_inner);
        let mut dropped = Vec::new();
        while let Some(&(at, id)) = entries.expiries.first() {
            if at > now {
                break;
            }
            entries.expiries.pop_first();
            if let Some(record) = entries.records.remove(&id)
                && !record.status.is_terminal()
            {
                dropped.push(id);
            }
        }
        (entries, dropped)
    }
}

/// When `record` expires, for ordering (a TTL too long for the clock never expires).
fn expiry(record: &TaskRecord) -> Option<SystemTime> {
    record.created_at.checked_add(record.ttl)
}

impl Entries {
    /// Notes that `id` finished; drops the notes of tasks already forgotten once they
    /// outnumber the store twice over, so the list stays bounded.
    fn note_finished(&mut self, id: TaskId, max: usize) {
        self.finished.push_back(id);
        if self.finished.len() > max.saturating_mul(2) {
            let records = &self.records;
            self.finished.retain(|id| records.contains_key(id));
        }
    }

    /// Forgets the oldest finished task still held; `false` when none is.
    fn evict_finished(&mut self) -> bool {
        while let Some(id) = self.finished.pop_front() {
            if let Some(record) = self.records.remove(&id) {
                if let Some(at) = expiry(&record) {
                    self.expiries.remove(&(at, id));
                }
                return true;
            }
        }
        false
    }
}

impl TaskStore for MemoryTaskStore {
    fn create(&self, record: TaskRecord) -> BoxFuture<'_, Result<(), StoreError>> {
        let (mut entries, _) = self.entries(SystemTime::now());
        let outcome = if entries.records.len() >= self.max && !entries.evict_finished() {
            Err(StoreError::Full { limit: self.max })
        } else {
            if let Some(at) = expiry(&record) {
                entries.expiries.insert((at, record.id));
            }
            let (id, done) = (record.id, record.status.is_terminal());
            entries.records.insert(id, record);
            if done {
                entries.note_finished(id, self.max);
            }
            Ok(())
        };
        Box::pin(std::future::ready(outcome))
    }

    fn get(&self, id: TaskId) -> BoxFuture<'_, Result<Option<TaskRecord>, StoreError>> {
        let (entries, _) = self.entries(SystemTime::now());
        let record = entries.records.get(&id).cloned();
        Box::pin(std::future::ready(Ok(record)))
    }

    fn update(&self, record: TaskRecord) -> BoxFuture<'_, Result<bool, StoreError>> {
        let (mut entries, _) = self.entries(SystemTime::now());
        let id = record.id;
        let done = record.status.is_terminal();
        let replaced = match entries.records.get_mut(&id) {
            Some(kept) if !kept.status.is_terminal() => {
                *kept = record;
                true
            }
            _ => false,
        };
        if replaced && done {
            entries.note_finished(id, self.max);
        }
        Box::pin(std::future::ready(Ok(replaced)))
    }

    fn sweep(&self, now: SystemTime) -> BoxFuture<'_, Result<Vec<TaskId>, StoreError>> {
        let (entries, dropped) = self.entries(now);
        drop(entries);
        Box::pin(std::future::ready(Ok(dropped)))
    }
}
