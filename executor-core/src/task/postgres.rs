//! [`PostgresTaskStore`] (feature `task-postgres`): tasks in one PostgreSQL table, shared by
//! every replica on the database, so a task created on one is read and cancelled on any other;
//! and the replica watchdog: a task whose replica died ends `failed`, not `working` until its
//! TTL.
//!
//! A task's call runs in the replica that created it. Each store beats in
//! `executor_mcp_replicas` (the database's clock, so no skew between hosts) every third of the
//! replica timeout, and at each beat fails the unfinished tasks of replicas whose last beat is
//! older than the timeout, through `update`, whose terminal-record rule keeps a task that
//! finished meanwhile.

use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde_json::{Map, Value};
use sqlx::postgres::{PgPool, PgPoolOptions};
use tokio_util::sync::{CancellationToken, DropGuard};

use super::record::{TaskId, TaskOutcome, TaskRecord, TaskStatus};
use super::store::{StoreError, TaskStore};
use crate::tool::BoxFuture;

/// `pg_advisory_xact_lock` key for the table ("mcptasks" in ASCII), so replicas starting
/// together do not race on `CREATE TABLE IF NOT EXISTS`.
const SCHEMA_LOCK: i64 = 0x6d63_7074_6173_6b73;

const SCHEMA: [&str; 3] = [
    "CREATE TABLE IF NOT EXISTS executor_mcp_tasks (
        task_id    TEXT PRIMARY KEY,
        replica    TEXT NOT NULL,
        terminal   BOOLEAN NOT NULL,
        expires_ms BIGINT NOT NULL,
        record     TEXT NOT NULL
    )",
    "CREATE INDEX IF NOT EXISTS executor_mcp_tasks_expiry ON executor_mcp_tasks (expires_ms)",
    "CREATE TABLE IF NOT EXISTS executor_mcp_replicas (
        replica TEXT PRIMARY KEY,
        beat_at TIMESTAMPTZ NOT NULL DEFAULT now()
    )",
];

const CREATE: &str =
    "INSERT INTO executor_mcp_tasks (task_id, replica, terminal, expires_ms, record)
    VALUES ($1, $5, $2, $3, $4)";

const BEAT: &str = "INSERT INTO executor_mcp_replicas (replica) VALUES ($1)
    ON CONFLICT (replica) DO UPDATE SET beat_at = now()";

/// The unfinished tasks of replicas silent for longer than `$1` milliseconds.
const ORPHANS: &str = "SELECT t.record FROM executor_mcp_tasks t
    JOIN executor_mcp_replicas r ON r.replica = t.replica
    WHERE NOT t.terminal AND r.beat_at < now() - make_interval(secs => $1::double precision / 1000)";

/// Replicas silent for longer than `$1` milliseconds with nothing unfinished left.
const FORGET: &str = "DELETE FROM executor_mcp_replicas r
    WHERE r.beat_at < now() - make_interval(secs => $1::double precision / 1000)
    AND NOT EXISTS (SELECT 1 FROM executor_mcp_tasks t WHERE t.replica = r.replica AND NOT t.terminal)";

/// How long a replica may go without a heartbeat before its unfinished tasks are failed
/// (30 s; [`PostgresTaskStore::connect_with`] sets it).
pub const DEFAULT_REPLICA_TIMEOUT: Duration = Duration::from_secs(30);

/// The shortest replica timeout accepted: beats come every third of it.
const MIN_REPLICA_TIMEOUT: Duration = Duration::from_millis(300);

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
///
/// This store is one replica: it beats while any clone of it lives (a Tokio task), and its
/// tasks are failed by the others when it stops beating for the replica timeout.
#[derive(Debug, Clone)]
pub struct PostgresTaskStore {
    pool: PgPool,
    replica: Arc<str>,
    /// Stops the heartbeat when the last clone is dropped.
    _beating: Arc<DropGuard>,
}

impl PostgresTaskStore {
    /// Connects with a pool of ten connections, creates the tables if absent, and beats as a
    /// replica with the default timeout ([`DEFAULT_REPLICA_TIMEOUT`]).
    ///
    /// # Errors
    /// [`StoreError::Backend`] when the database cannot be reached or the tables created.
    pub async fn connect(url: &str) -> Result<Self, StoreError> {
        Self::connect_with(url, DEFAULT_REPLICA_TIMEOUT).await
    }

    /// [`connect`](Self::connect) with a replica timeout (at least 300 ms): a replica silent
    /// for that long has its unfinished tasks failed by the others, within a third of it more.
    ///
    /// # Errors
    /// As [`connect`](Self::connect).
    pub async fn connect_with(url: &str, replica_timeout: Duration) -> Result<Self, StoreError> {
        let pool = PgPoolOptions::new()
            .max_connections(10)
            .connect(url)
            .await
            .map_err(backend)?;
        Self::from_pool(pool, replica_timeout).await
    }

    /// Uses `pool`, creating the tables if absent; beats as a replica with `replica_timeout`.
    ///
    /// # Errors
    /// [`StoreError::Backend`] when the tables cannot be created or the first beat written;
    /// outside a Tokio runtime.
    pub async fn from_pool(pool: PgPool, replica_timeout: Duration) -> Result<Self, StoreError> {
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
        let replica: Arc<str> = crate::runtime::HandleId::fresh().to_string().into();
        beat(&pool, &replica).await.map_err(backend)?;
        let tokio = tokio::runtime::Handle::try_current().map_err(backend)?;
        let stop = CancellationToken::new();
        let timeout = replica_timeout.max(MIN_REPLICA_TIMEOUT);
        let store = Self {
            pool,
            replica,
            _beating: Arc::new(stop.clone().drop_guard()),
        };
        let watch = Watch {
            pool: store.pool.clone(),
            replica: Arc::clone(&store.replica),
            timeout,
        };
        tokio.spawn(async move { stop.run_until_cancelled(watch.run()).await });
        Ok(store)
    }
}

async fn beat(pool: &PgPool, replica: &str) -> Result<(), sqlx::Error> {
    sqlx::query(BEAT)
        .bind(replica)
        .execute(pool)
        .await
        .map(drop)
}

/// The heartbeat and the reaper of one replica.
struct Watch {
    pool: PgPool,
    replica: Arc<str>,
    timeout: Duration,
}

impl Watch {
    async fn run(self) {
        let mut every = tokio::time::interval(self.timeout / 3);
        every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            every.tick().await;
            // A database that is down now may be back at the next beat.
            let _ = beat(&self.pool, &self.replica).await;
            let _ = self.reap().await;
        }
    }

    /// Fails the unfinished tasks of silent replicas, then forgets those replicas.
    async fn reap(&self) -> Result<(), StoreError> {
        let ms = i64::try_from(self.timeout.as_millis()).unwrap_or(i64::MAX);
        let orphans: Vec<(String,)> = sqlx::query_as(ORPHANS)
            .bind(ms)
            .fetch_all(&self.pool)
            .await
            .map_err(backend)?;
        for (text,) in orphans {
            let Ok(mut record) = serde_json::from_str::<TaskRecord>(&text) else {
                continue;
            };
            record.status = TaskStatus::Failed;
            record.updated_at = SystemTime::now();
            record.outcome = Some(TaskOutcome::Error(replica_lost(self.timeout)));
            update(&self.pool, &record).await?;
        }
        sqlx::query(FORGET)
            .bind(ms)
            .execute(&self.pool)
            .await
            .map_err(backend)?;
        Ok(())
    }
}

/// The JSON-RPC error of a task whose replica died.
fn replica_lost(timeout: Duration) -> Map<String, Value> {
    let mut error = Map::new();
    error.insert("code".into(), Value::from(-32603));
    error.insert(
        "message".into(),
        Value::from(format!(
            "the server replica running this task stopped (no heartbeat for {} ms); the task was failed and can be started again",
            timeout.as_millis()
        )),
    );
    error.insert("data".into(), serde_json::json!({"code": "replica_lost"}));
    error
}

/// Replaces an unfinished, unexpired record; whether it did.
async fn update(pool: &PgPool, record: &TaskRecord) -> Result<bool, StoreError> {
    let done = sqlx::query(UPDATE)
        .bind(record.id.to_string())
        .bind(record.status.is_terminal())
        .bind(encode(record)?)
        .bind(millis(SystemTime::now()))
        .execute(pool)
        .await
        .map_err(backend)?;
    Ok(done.rows_affected() == 1)
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
                .bind(&*self.replica)
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
        Box::pin(async move { update(&self.pool, &record).await })
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
