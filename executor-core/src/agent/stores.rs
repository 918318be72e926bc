//! `Stores`: where an [`AgentServer`](super::AgentServer) keeps its tasks, push configs and
//! halts, on the server crate's own SQL stores (features `a2a-postgres`, `a2a-sqlite`).

use std::fmt;
use std::sync::Arc;
#[cfg(feature = "a2a-postgres")]
use std::time::Duration;

use a2a_protocol_server::RequestHandlerBuilder;
use a2a_protocol_server::store::TaskStore;

use super::serve::{ServeError, WatchGuard};
#[cfg(feature = "a2a-postgres")]
use super::watchdog::Watchdog;

/// The server crate's task, push-config and halt stores on one database, for
/// [`AgentServerBuilder::stores`](super::AgentServerBuilder::stores).
///
/// - [`postgres`](Self::postgres): every replica on the database shares tasks (a task sent to
///   one is read, listed, subscribed to and cancelled on any other), push configs and halts;
///   a cancel or a halt given to one replica reaches the one running the task through
///   `LISTEN`/`NOTIFY`. A replica that dies has its running tasks failed by the others after
///   [`with_replica_timeout`](Self::with_replica_timeout) (code `replica_lost`).
/// - [`sqlite`](Self::sqlite): the same stores in one file, for one node whose tasks outlive a
///   restart.
///
/// What does not cross replicas: the one-writer-per-task refusal (two replicas both admit a
/// continuation of one task), rate limits (unless given a shared counter through
/// [`AgentServerBuilder::configure`](super::AgentServerBuilder::configure)), and the tasks
/// table grows until the deployment prunes it (`PostgresTaskStore::purge_expired`).
#[cfg_attr(
    docsrs,
    doc(cfg(any(feature = "a2a-postgres", feature = "a2a-sqlite")))
)]
pub struct Stores {
    backend: Backend,
}

enum Backend {
    #[cfg(feature = "a2a-postgres")]
    Postgres {
        tasks: a2a_protocol_server::store::PostgresTaskStore,
        push: a2a_protocol_server::PostgresPushConfigStore,
        halts: a2a_protocol_server::store::PostgresHaltStore,
        watchdog: Watchdog,
    },
    #[cfg(feature = "a2a-sqlite")]
    Sqlite {
        tasks: a2a_protocol_server::store::SqliteTaskStore,
        push: a2a_protocol_server::SqlitePushConfigStore,
        halts: a2a_protocol_server::store::SqliteHaltStore,
    },
}

impl fmt::Debug for Stores {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let backend = match &self.backend {
            #[cfg(feature = "a2a-postgres")]
            Backend::Postgres { .. } => "postgres",
            #[cfg(feature = "a2a-sqlite")]
            Backend::Sqlite { .. } => "sqlite",
        };
        f.debug_struct("Stores")
            .field("backend", &backend)
            .finish_non_exhaustive()
    }
}

fn store_error(what: &str, e: impl fmt::Display) -> ServeError {
    ServeError::Store(format!("{what}: {e}").into())
}

impl Stores {
    /// Connects to PostgreSQL at `url` (`postgres://user:password@host:port/database`) with one
    /// pool of ten connections, creates the tables if absent and records this process as a
    /// replica.
    ///
    /// # Errors
    /// [`ServeError::Store`] when the database cannot be reached or the tables created.
    #[cfg(feature = "a2a-postgres")]
    #[cfg_attr(docsrs, doc(cfg(feature = "a2a-postgres")))]
    pub async fn postgres(url: &str) -> Result<Self, ServeError> {
        use a2a_protocol_server::store::{PostgresHaltStore, PostgresTaskStore};
        let pool = sqlx::postgres::PgPoolOptions::new()
            .max_connections(10)
            .connect(url)
            .await
            .map_err(|e| store_error("cannot connect to PostgreSQL", e))?;
        let tasks = PostgresTaskStore::from_pool(pool.clone())
            .await
            .map_err(|e| store_error("task store", e))?;
        let push = a2a_protocol_server::PostgresPushConfigStore::from_pool(pool.clone())
            .await
            .map_err(|e| store_error("push-config store", e))?;
        let halts = PostgresHaltStore::from_pool(pool.clone())
            .await
            .map_err(|e| store_error("halt store", e))?;
        let watchdog = Watchdog::start(pool)
            .await
            .map_err(|e| store_error("replica watchdog", e))?;
        Ok(Self {
            backend: Backend::Postgres {
                tasks,
                push,
                halts,
                watchdog,
            },
        })
    }

    /// Opens (or creates) the SQLite database at `url` (`sqlite:///path/agent.db`) and creates
    /// the tables if absent.
    ///
    /// # Errors
    /// [`ServeError::Store`] when the file cannot be opened or the tables created.
    #[cfg(feature = "a2a-sqlite")]
    #[cfg_attr(docsrs, doc(cfg(feature = "a2a-sqlite")))]
    pub async fn sqlite(url: &str) -> Result<Self, ServeError> {
        use a2a_protocol_server::store::{SqliteHaltStore, SqliteTaskStore};
        let tasks = SqliteTaskStore::new(url)
            .await
            .map_err(|e| store_error("task store", e))?;
        let push = a2a_protocol_server::SqlitePushConfigStore::new(url)
            .await
            .map_err(|e| store_error("push-config store", e))?;
        let halts = SqliteHaltStore::new(url)
            .await
            .map_err(|e| store_error("halt store", e))?;
        Ok(Self {
            backend: Backend::Sqlite { tasks, push, halts },
        })
    }

    /// How long a replica may go without a heartbeat before the others fail its running tasks
    /// (default [`DEFAULT_REPLICA_TIMEOUT`](super::DEFAULT_REPLICA_TIMEOUT), 30 s; at least
    /// 300 ms). Replicas beat every third of it, so a dead replica's task is failed between
    /// one timeout and one timeout plus a third after its last beat, once a surviving replica
    /// has itself been up for a timeout. The same time also bounds how long a replica cut off
    /// from the database may be silent before its tasks are failed while it still runs them
    /// (its later writes are then refused and its executors cancelled). Ignored by SQLite.
    #[cfg(feature = "a2a-postgres")]
    #[cfg_attr(docsrs, doc(cfg(feature = "a2a-postgres")))]
    #[must_use]
    pub fn with_replica_timeout(mut self, timeout: Duration) -> Self {
        #[allow(irrefutable_let_patterns)] // one backend when `a2a-sqlite` is off
        if let Backend::Postgres { watchdog, .. } = &mut self.backend {
            watchdog.set_timeout(timeout);
        }
        self
    }

    /// The replica timeout in force (`None` on SQLite).
    #[must_use]
    pub fn replica_timeout(&self) -> Option<std::time::Duration> {
        match &self.backend {
            #[cfg(feature = "a2a-postgres")]
            Backend::Postgres { watchdog, .. } => Some(watchdog.timeout()),
            #[cfg(feature = "a2a-sqlite")]
            Backend::Sqlite { .. } => None,
        }
    }

    /// The task store, shared (what the server reads and writes).
    #[must_use]
    pub fn task_store(&self) -> Arc<dyn TaskStore> {
        match &self.backend {
            #[cfg(feature = "a2a-postgres")]
            Backend::Postgres { tasks, .. } => Arc::new(tasks.clone()),
            #[cfg(feature = "a2a-sqlite")]
            Backend::Sqlite { tasks, .. } => Arc::new(tasks.clone()),
        }
    }

    /// The handler builder for `executor` on these stores, with the watchdog's loop started
    /// (it stops when the guard drops).
    pub(super) fn handler_builder(
        self,
        executor: impl a2a_protocol_server::AgentExecutor,
    ) -> (RequestHandlerBuilder, WatchGuard) {
        match self.backend {
            #[cfg(feature = "a2a-postgres")]
            Backend::Postgres {
                tasks,
                push,
                halts,
                watchdog,
            } => {
                let watch = tokio::spawn(watchdog.clone().watch(Arc::new(tasks.clone())));
                let executor = super::watchdog::Watched {
                    inner: executor,
                    watchdog,
                };
                let builder = RequestHandlerBuilder::new(executor)
                    .with_task_store(tasks)
                    .with_push_config_store(push)
                    .with_halt_store(halts);
                (builder, WatchGuard(Some(watch)))
            }
            #[cfg(feature = "a2a-sqlite")]
            Backend::Sqlite { tasks, push, halts } => {
                let builder = RequestHandlerBuilder::new(executor)
                    .with_task_store(tasks)
                    .with_push_config_store(push)
                    .with_halt_store(halts);
                (builder, WatchGuard(None))
            }
        }
    }
}
