//! A task as every protocol reads it: [`TaskRecord`], its [`TaskStatus`] and [`TaskOutcome`].
//! What a store keeps; the running call behind it is a [`Handle`](crate::runtime::Handle).

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::runtime::{HandleId, HandleStatus};

/// A task's id: the id of the [`Handle`](crate::runtime::Handle) its call runs as (128 random
/// bits as 32 hex digits, so unguessable).
pub type TaskId = HandleId;

/// Where a task is. The last three are terminal: once a task reaches one, it never changes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TaskStatus {
    /// Running.
    Working,
    /// Waiting for answers to its [`input_requests`](TaskRecord::input_requests).
    InputRequired,
    /// Ended with a result (a tool's own error, `isError: true`, included).
    Completed,
    /// Ended with a protocol error.
    Failed,
    /// Cancelled before it ended.
    Cancelled,
}

impl TaskStatus {
    /// `completed`, `failed` or `cancelled`.
    #[must_use]
    pub const fn is_terminal(self) -> bool {
        matches!(self, Self::Completed | Self::Failed | Self::Cancelled)
    }
}

impl From<HandleStatus> for TaskStatus {
    /// A handle's status as a task's. A failed call is `failed` here; the MCP server decides
    /// which failures are results (`completed` with `isError`) when it records the outcome.
    fn from(status: HandleStatus) -> Self {
        match status {
            HandleStatus::Running => Self::Working,
            HandleStatus::Done => Self::Completed,
            HandleStatus::Failed => Self::Failed,
            HandleStatus::Cancelled => Self::Cancelled,
        }
    }
}

/// How a task ended.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TaskOutcome {
    /// The protocol's result object (for MCP, the `CallToolResult`).
    Result(Map<String, Value>),
    /// A JSON-RPC error object (`code`, `message`, `data`).
    Error(Map<String, Value>),
}

/// A task: what `tasks/get` reads, and what a [`TaskStore`](super::TaskStore) keeps.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct TaskRecord {
    /// The task's id.
    #[serde(with = "id_text")]
    pub id: TaskId,
    /// The tool the task runs.
    pub tool: String,
    /// Where it is.
    pub status: TaskStatus,
    /// The last progress message, shown to the user or model.
    pub status_message: Option<String>,
    /// When it was created.
    pub created_at: SystemTime,
    /// When it last changed.
    pub updated_at: SystemTime,
    /// How long it lives from `created_at`.
    pub ttl: Duration,
    /// How often a client should poll it.
    pub poll_interval: Duration,
    /// What it asks the client while `input_required`, by key: each an `elicitation/create`
    /// request (`{method, params}`), an `inputRequests` entry.
    pub input_requests: Option<Map<String, Value>>,
    /// Answers a `tasks/update` left for the process that runs the task (one sharing the
    /// store), by key; that process takes them in within its poll interval.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input_responses: Option<Map<String, Value>>,
    /// How it ended, once terminal (`None` for `cancelled`).
    pub outcome: Option<TaskOutcome>,
}

impl TaskRecord {
    /// A new `working` task.
    #[must_use]
    pub fn working(id: TaskId, tool: &str, ttl: Duration, poll_interval: Duration) -> Self {
        let now = SystemTime::now();
        Self {
            id,
            tool: tool.to_owned(),
            status: TaskStatus::Working,
            status_message: None,
            created_at: now,
            updated_at: now,
            ttl,
            poll_interval,
            input_requests: None,
            input_responses: None,
            outcome: None,
        }
    }

    /// Whether `at` is past the task's TTL (`created_at + ttl`).
    #[must_use]
    pub fn expired(&self, at: SystemTime) -> bool {
        at.duration_since(self.created_at)
            .is_ok_and(|age| age >= self.ttl)
    }
}

mod id_text {
    use serde::{Deserialize, Deserializer, Serializer};

    use super::TaskId;

    pub fn serialize<S: Serializer>(id: &TaskId, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(id)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<TaskId, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// `at` in ISO 8601 UTC with milliseconds (`2026-07-28T09:30:00.000Z`), as tasks' timestamps
/// are written on the wire.
#[must_use]
pub fn iso8601(at: SystemTime) -> String {
    let since = at.duration_since(UNIX_EPOCH).unwrap_or_default();
    let secs = since.as_secs();
    let days = i64::try_from(secs / 86_400).unwrap_or(0);
    let rem = secs % 86_400;
    let (year, month, day) = civil_from_days(days);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{:03}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60,
        since.subsec_millis()
    )
}

/// Howard Hinnant's `civil_from_days`: days since 1970-01-01 to (year, month, day).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    // Both are in range by construction (day 1..=31, month 1..=12).
    (
        year,
        u32::try_from(month).unwrap_or(1),
        u32::try_from(day).unwrap_or(1),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iso8601_writes_utc_with_milliseconds() {
        let at = UNIX_EPOCH + Duration::from_millis(1_785_231_000_123);
        assert_eq!(iso8601(at), "2026-07-28T09:30:00.123Z");
        assert_eq!(iso8601(UNIX_EPOCH), "1970-01-01T00:00:00.000Z");
        let leap = UNIX_EPOCH + Duration::from_secs(951_782_400); // 2000-02-29
        assert_eq!(iso8601(leap), "2000-02-29T00:00:00.000Z");
    }

    #[test]
    fn terminal_statuses_are_the_last_three() {
        let terminal: Vec<bool> = [
            TaskStatus::Working,
            TaskStatus::InputRequired,
            TaskStatus::Completed,
            TaskStatus::Failed,
            TaskStatus::Cancelled,
        ]
        .iter()
        .map(|s| s.is_terminal())
        .collect();
        assert_eq!(terminal, [false, false, true, true, true]);
    }
}
