//! The replica watchdog (feature `a2a-postgres`): a task whose replica died ends `failed`
//! instead of `working` forever.
//!
//! The server crate's stores share tasks between replicas, but a task's executor runs in one
//! process; when that process dies nothing else knows the task will never finish. Each replica
//! beats in `executor_replicas` (the database's clock, so no skew between hosts), records the
//! tasks it is running in `executor_running_tasks` for as long as their `execute` runs, and
//! every beat claims the rows of replicas whose last beat is older than the timeout (one
//! `DELETE … RETURNING`, so two survivors never claim the same task) and fails those tasks
//! through the task store, whose terminal-state rule keeps a task that finished meanwhile.

use std::sync::Arc;
use std::time::Duration;

use a2a_protocol_server::store::{TaskStore, TerminalStateConflict};
use a2a_protocol_server::{AgentExecutor, EventQueueWriter, RequestContext};
use a2a_protocol_types::error::{A2aError, A2aResult};
use a2a_protocol_types::failure::{FailureClass, set_class};
use a2a_protocol_types::message::{Message, Part};
use a2a_protocol_types::task::{TaskId, TaskState, TaskStatus};
use serde_json::{Value, json};
use sqlx::postgres::PgPool;
use tokio::time::Instant;

use crate::tool::BoxFuture;

/// How long a replica may go without a heartbeat before its running tasks are failed (30 s);
/// set it with [`Stores::with_replica_timeout`](super::Stores::with_replica_timeout).
pub const DEFAULT_REPLICA_TIMEOUT: Duration = Duration::from_secs(30);

/// The shortest timeout the watchdog accepts: beats come every third of it.
const MIN_REPLICA_TIMEOUT: Duration = Duration::from_millis(300);

/// The failure code of a task failed because its replica died.
pub const REPLICA_LOST: &str = "replica_lost";

/// `pg_advisory_xact_lock` key for the schema ("executor" in ASCII), so replicas starting
/// together do not race on `CREATE TABLE IF NOT EXISTS`.
const SCHEMA_LOCK: i64 = 0x6578_6563_7574_6f72;

const SCHEMA: [&str; 2] = [
    "CREATE TABLE IF NOT EXISTS executor_replicas (
        replica TEXT PRIMARY KEY,
        beat_at TIMESTAMPTZ NOT NULL DEFAULT now()
    )",
    "CREATE TABLE IF NOT EXISTS executor_running_tasks (
        task_id    TEXT PRIMARY KEY,
        replica    TEXT NOT NULL,
        started_at TIMESTAMPTZ NOT NULL DEFAULT now()
    )",
];

const BEAT: &str = "INSERT INTO executor_replicas (replica) VALUES ($1)
    ON CONFLICT (replica) DO UPDATE SET beat_at = now()";

const CLAIM: &str = "INSERT INTO executor_running_tasks (task_id, replica) VALUES ($1, $2)
    ON CONFLICT (task_id) DO UPDATE SET replica = EXCLUDED.replica, started_at = now()";

const RELEASE: &str = "DELETE FROM executor_running_tasks WHERE task_id = $1 AND replica = $2";

/// Claims the tasks of every other replica silent for longer than `$2` ms, with how long it
/// has been silent.
const REAP: &str = "DELETE FROM executor_running_tasks t USING executor_replicas r
    WHERE t.replica = r.replica AND r.replica <> $1
      AND r.beat_at < now() - $2::bigint * interval '1 millisecond'
    RETURNING t.task_id, t.replica,
      (EXTRACT(EPOCH FROM (now() - r.beat_at)) * 1000)::bigint AS silent_ms";

/// Forgets replicas silent for ten timeouts that run nothing any more.
const FORGET: &str = "DELETE FROM executor_replicas r
    WHERE r.beat_at < now() - $1::bigint * interval '10 milliseconds'
      AND NOT EXISTS (SELECT 1 FROM executor_running_tasks t WHERE t.replica = r.replica)";

/// One replica's heartbeat and its record of running tasks.
#[derive(Debug, Clone)]
pub(super) struct Watchdog {
    pool: PgPool,
    replica: Arc<str>,
    timeout: Duration,
}

impl Watchdog {
    /// Creates the tables if absent and beats once, so this replica's rows exist before it
    /// runs anything.
    pub(super) async fn start(pool: PgPool) -> Result<Self, sqlx::Error> {
        let mut tx = pool.begin().await?;
        sqlx::query("SELECT pg_advisory_xact_lock($1)")
            .bind(SCHEMA_LOCK)
            .execute(&mut *tx)
            .await?;
        for ddl in SCHEMA {
            sqlx::query(ddl).execute(&mut *tx).await?;
        }
        tx.commit().await?;
        let watchdog = Self {
            pool,
            replica: uuid::Uuid::new_v4().to_string().into(),
            timeout: DEFAULT_REPLICA_TIMEOUT,
        };
        watchdog.beat().await?;
        Ok(watchdog)
    }

    pub(super) fn set_timeout(&mut self, timeout: Duration) {
        self.timeout = timeout.max(MIN_REPLICA_TIMEOUT);
    }

    pub(super) fn timeout(&self) -> Duration {
        self.timeout
    }

    async fn beat(&self) -> Result<(), sqlx::Error> {
        sqlx::query(BEAT)
            .bind(&*self.replica)
            .execute(&self.pool)
            .await
            .map(drop)
    }

    /// Records `task` as running here.
    async fn claim(&self, task: &str) -> Result<(), sqlx::Error> {
        self.about_task(CLAIM, task).await
    }

    /// Forgets `task` as running here.
    async fn release(&self, task: &str) -> Result<(), sqlx::Error> {
        self.about_task(RELEASE, task).await
    }

    async fn about_task(&self, sql: &'static str, task: &str) -> Result<(), sqlx::Error> {
        sqlx::query(sql)
            .bind(task)
            .bind(&*self.replica)
            .execute(&self.pool)
            .await
            .map(drop)
    }

    fn timeout_ms(&self) -> i64 {
        i64::try_from(self.timeout.as_millis()).unwrap_or(i64::MAX)
    }

    /// Claims and fails the tasks of silent replicas; how many it failed.
    async fn reap(&self, store: &dyn TaskStore) -> Result<usize, sqlx::Error> {
        let orphans: Vec<(String, String, i64)> = sqlx::query_as(REAP)
            .bind(&*self.replica)
            .bind(self.timeout_ms())
            .fetch_all(&self.pool)
            .await?;
        let mut failed = 0;
        for (task, replica, silent_ms) in orphans {
            let why = format!(
                "the replica running this task ({replica}) stopped: no heartbeat for \
                 {silent_ms} ms (the limit is {} ms), so the task will not finish",
                self.timeout_ms()
            );
            match fail_task(store, &TaskId::new(task), why).await {
                Ok(true) => failed += 1,
                Ok(false) => {}
                Err(e) => warn("could not fail an orphaned task", &e),
            }
        }
        sqlx::query(FORGET)
            .bind(self.timeout_ms())
            .execute(&self.pool)
            .await?;
        Ok(failed)
    }

    /// Beats every third of the timeout and reaps once this replica has itself been beating
    /// for a whole timeout: after an outage of the database every replica's beat is stale,
    /// and the live ones get one timeout to beat again before anyone's tasks are failed.
    pub(super) async fn watch(self, store: Arc<dyn TaskStore>) {
        let mut ticks = tokio::time::interval(self.timeout / 3);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let mut healthy_since = Some(Instant::now());
        loop {
            ticks.tick().await;
            if let Err(e) = self.beat().await {
                warn("heartbeat failed", &e);
                healthy_since = None;
                continue;
            }
            let since = *healthy_since.get_or_insert_with(Instant::now);
            if since.elapsed() < self.timeout {
                continue;
            }
            if let Err(e) = self.reap(&*store).await {
                warn("reaping failed", &e);
            }
        }
    }
}

/// Reports a failed step of the watchdog: a `tracing` warning with the `tracing` feature, and
/// nothing without it (the next beat tries again).
#[cfg_attr(not(feature = "tracing"), allow(unused_variables))]
fn warn(what: &str, error: &dyn std::fmt::Display) {
    #[cfg(feature = "tracing")]
    tracing::warn!(error = %error, "replica watchdog: {what}");
}

/// Fails `id` with `why` unless it is gone or already terminal; whether it did.
async fn fail_task(store: &dyn TaskStore, id: &TaskId, why: String) -> A2aResult<bool> {
    let Some(mut task) = store.get(id).await? else {
        return Ok(false);
    };
    if task.status.state.is_terminal() {
        return Ok(false);
    }
    let mut note = Message::agent(uuid::Uuid::new_v4().to_string(), vec![Part::text(why)])
        .with_task_id(id.clone())
        .with_context_id(task.context_id.clone());
    set_class(&mut note, FailureClass::Transient);
    if let Some(Value::Object(map)) = &mut note.metadata {
        map.insert("code".to_owned(), json!(REPLICA_LOST));
    }
    let mut status = TaskStatus::with_timestamp(TaskState::Failed);
    status.message = Some(note);
    task.status = status;
    match store.save_status_delta(&task).await {
        Ok(()) => Ok(true),
        // Finished on its own between the read and the write: keep that ending.
        Err(e) if TerminalStateConflict::from_error(&e).is_some() => Ok(false),
        Err(e) => Err(e),
    }
}

/// An executor whose tasks are recorded as this replica's while their `execute` runs.
pub(super) struct Watched<E> {
    pub(super) inner: E,
    pub(super) watchdog: Watchdog,
}

/// Deletes the running-task row, also when `execute`'s future is dropped.
struct Running<'a> {
    watchdog: &'a Watchdog,
    task: Option<String>,
}

impl Running<'_> {
    async fn release(mut self) {
        if let Some(task) = self.task.take() {
            let _ = self.watchdog.release(&task).await;
        }
    }
}

impl Drop for Running<'_> {
    fn drop(&mut self) {
        let (Some(task), Ok(runtime)) = (self.task.take(), tokio::runtime::Handle::try_current())
        else {
            return;
        };
        let watchdog = self.watchdog.clone();
        runtime.spawn(async move {
            let _ = watchdog.release(&task).await;
        });
    }
}

impl<E: AgentExecutor> AgentExecutor for Watched<E> {
    fn execute<'a>(
        &'a self,
        ctx: &'a RequestContext,
        queue: &'a dyn EventQueueWriter,
    ) -> BoxFuture<'a, A2aResult<()>> {
        Box::pin(async move {
            let task = ctx.task_id.0.clone();
            self.watchdog.claim(&task).await.map_err(|e| {
                A2aError::internal(format!("could not record the task as running here: {e}"))
            })?;
            let running = Running {
                watchdog: &self.watchdog,
                task: Some(task),
            };
            let outcome = self.inner.execute(ctx, queue).await;
            running.release().await;
            outcome
        })
    }

    fn cancel<'a>(
        &'a self,
        ctx: &'a RequestContext,
        queue: &'a dyn EventQueueWriter,
    ) -> BoxFuture<'a, A2aResult<()>> {
        self.inner.cancel(ctx, queue)
    }

    fn on_shutdown(&self) -> BoxFuture<'_, ()> {
        self.inner.on_shutdown()
    }
}
