//! [`PostgresTaskStore`] (feature `task-postgres`): tasks in one PostgreSQL table, shared by
//! every replica on the database, so a task created on one is read and cancelled on any other.

use std::time::{SystemTime, UNIX_EPOCH};

use sqlx::postgres::{PgPool, PgPoolOptions};

use super::record::{TaskId, TaskRecord};
use super::store::{StoreError, TaskStore};
use crate::tool::BoxFuture;

/// `pg_advisory_xact_lock` key for the table ("mcptasks" in ASCII), so replicas starting
/// together do not race on `CREATE TABLE IF NOT EXISTS`.
const SCHEMA_LOCK: i64 = 0x6d63_7074_6173_6b73;

const SCHEMA: [&str; 2] = [
    "CREATE TABLE IF NOT EXISTS executor_mcp_tasks (
        task_id    TEXT PRIMARY KEY,
        terminal   BOOLEAN NOT NULL,
        expires_ms BIGINT NOT NULL,
        record     TEXT NOT NULL
    )",
    "CREATE INDEX IF NOT EXISTS executor_mcp_tasks_expiry ON executor_mcp_tasks (expires_ms)",
];

const CREATE: &str = "INSERT INTO executor_mcp_tasks (task_id, terminal, expires_ms, record)
    VALUES ($1, $2, $3, $4)";

const GET: &str = "SELECT record FROM executor_mcp_tasks WHERE task_id = $1 AND expires_ms > $2";

const UPDATE: &str = "UPDATE executor_mcp_tasks SET terminal = $2, record = $3
    WHERE task_id = $1 AND NOT terminal AND expires_ms > $4";

const SWEEP: &str = "DELETE FROM executor_mcp_tasks WHERE expires_ms <= $1
    RETURNING task_id, terminal";

/// Tasks in PostgreSQL (table `executor_mcp_tasks`, created if absent): every replica on the
/// database sees every task. A write is committed before the call returns, so a task is
/// readable everywhere once [`create`](TaskStore::create) returned; a terminal record is never
/// replaced (the `UPDATE` matches only unfinished rows). Rows past their TTL are never read
/// and are deleted by [`sweep`](TaskStore::sweep).
///
/// ```no_run
/// # async fn run() -> Result<(), Box<dyn std::error::Error>> {
/// use tool_executor::task::{PostgresTaskStore, Tasks};
///
/// let store = PostgresTaskStore::connect("postgres://mcp@db:5432/tasks").await?;
/// let tasks = Tasks::new(store);
/// # let _ = tasks; Ok(()) }
/// ```
#[derive(Debug, Clone)]
pub struct PostgresTaskStore {
    pool: PgPool,
}

impl PostgresTaskStore {
    /// Connects with a pool of ten connections and creates the table if absent.
    ///
    /// # Errors
    /// [`StoreError::Backend`] when the database cannot be reached or the table created.
    pub async fn connect(url: &str) -> Result<Self, StoreError> {
        let pool = PgPoolOptions::new()
            .max_connections(10)
            .connect(url)
            .await
            .map_err(backend)?;
        Self::from_pool(pool).await
    }

    /// Uses `pool`, creating the table if absent.
    ///
    /// # Errors
    /// [`StoreError::Backend`] when the table cannot be created.
    pub async fn from_pool(pool: PgPool) -> Result<Self, StoreError> {
        let mut tx = pool.begin().await.map_err(backend)?;
        sqlx::query("SELECT pg_advisory_xact_lock($1)")
            .bind(SCHEMA_LOCK)
            .execute(&mut *tx)
            .await
            .map_err(backend)?;
        for ddl in SCHEMA {
            sqlx::query(ddl).execute(&mut *tx).await.map_err(backend)?;
        }
        tx.commit().await.map_err(backend)?;
        Ok(Self { pool })
    }
}

fn backend(e: impl std::fmt::Display) -> StoreError {
    StoreError::Backend(e.to_string())
}

/// Milliseconds since the epoch, saturating.
fn millis(at: SystemTime) -> i64 {
    let ms = at
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default()
        .as_millis();
    i64::try_from(ms).unwrap_or(i64::MAX)
}

fn expires_ms(record: &TaskRecord) -> i64 {
    let ttl = i64::try_from(record.ttl.as_millis()).unwrap_or(i64::MAX);
    millis(record.created_at).saturating_add(ttl)
}

fn encode(record: &TaskRecord) -> Result<String, StoreError> {
    serde_json::to_string(record).map_err(backend)
}

impl TaskStore for PostgresTaskStore {
    fn create(&self, record: TaskRecord) -> BoxFuture<'_, Result<(), StoreError>> {
        Box::pin(async move {
            sqlx::query(CREATE)
                .bind(record.id.to_string())
                .bind(record.status.is_terminal())
                .bind(expires_ms(&record))
                .bind(encode(&record)?)
                .execute(&self.pool)
                .await
                .map_err(backend)?;
            Ok(())
        })
    }

    fn get(&self, id: TaskId) -> BoxFuture<'_, Result<Option<TaskRecord>, StoreError>> {
        Box::pin(async move {
            let row: Option<(String,)> = sqlx::query_as(GET)
                .bind(id.to_string())
                .bind(millis(SystemTime::now()))
                .fetch_optional(&self.pool)
                .await
                .map_err(backend)?;
            row.map(|(text,)| serde_json::from_str(&text).map_err(backend))
                .transpose()
        })
    }

    fn update(&self, record: TaskRecord) -> BoxFuture<'_, Result<bool, StoreError>> {
        Box::pin(async move {
            let done = sqlx::query(UPDATE)
                .bind(record.id.to_string())
                .bind(record.status.is_terminal())
                .bind(encode(&record)?)
                .bind(millis(SystemTime::now()))
                .execute(&self.pool)
                .await
                .map_err(backend)?;
            Ok(done.rows_affected() == 1)
        })
    }

    fn sweep(&self, now: SystemTime) -> BoxFuture<'_, Result<Vec<TaskId>, StoreError>> {
        Box::pin(async move {
            let rows: Vec<(String, bool)> = sqlx::query_as(SWEEP)
                .bind(millis(now))
                .fetch_all(&self.pool)
                .await
                .map_err(backend)?;
            Ok(rows
                .into_iter()
                .filter(|(_, terminal)| !terminal)
                .filter_map(|(id, _)| id.parse().ok())
                .collect())
        })
    }
}
