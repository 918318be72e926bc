//! The task model without a transport: the in-memory store's bound, TTL sweep and immutable
//! terminal records, and `Tasks` running a call as a handle.

use std::sync::Arc;
use std::time::{Duration, SystemTime};

use serde_json::{Map, json};
use tool_executor::prelude::*;
use tool_executor::runtime::HandleStatus;
use tool_executor::task::{
    MemoryTaskStore, StoreError, TaskId, TaskOutcome, TaskRecord, TaskSpec, TaskStatus, TaskStore,
    TaskSupport, Tasks,
};
use tool_executor::tool::BoxFuture;
use tool_executor::{ToolExecution, ToolSet};

type Outcome = Result<ToolExecution, ToolFailure>;

fn record(ttl: Duration) -> TaskRecord {
    TaskRecord::working(fresh_id(), "t", ttl, Duration::from_secs(1))
}

/// A distinct id each time.
fn fresh_id() -> TaskId {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(1);
    format!("{:032x}", NEXT.fetch_add(1, Ordering::Relaxed))
        .parse()
        .unwrap()
}

fn finished(mut r: TaskRecord) -> TaskRecord {
    r.status = TaskStatus::Completed;
    r.outcome = Some(TaskOutcome::Result(Map::new()));
    r
}

#[tokio::test]
async fn a_full_store_forgets_its_oldest_finished_task_and_refuses_when_all_run() {
    let store = MemoryTaskStore::new(2);
    let hour = Duration::from_secs(3600);
    let (a, b) = (record(hour), record(hour));
    store.create(a.clone()).await.unwrap();
    store.create(b.clone()).await.unwrap();
    let c = record(hour);
    assert_eq!(
        store.create(c.clone()).await,
        Err(StoreError::Full { limit: 2 })
    );
    assert!(store.update(finished(a.clone())).await.unwrap());
    store.create(c.clone()).await.unwrap();
    assert_eq!(
        store.get(a.id).await.unwrap(),
        None,
        "the finished task made room"
    );
    assert!(store.get(b.id).await.unwrap().is_some());
    assert!(store.get(c.id).await.unwrap().is_some());
    assert_eq!(store.len(), 2);
}

#[tokio::test]
async fn a_terminal_record_never_changes() {
    let store = MemoryTaskStore::default();
    let r = record(Duration::from_secs(60));
    store.create(r.clone()).await.unwrap();
    let done = finished(r.clone());
    assert!(store.update(done.clone()).await.unwrap());
    let mut later = r.clone();
    later.status = TaskStatus::Cancelled;
    assert!(!store.update(later).await.unwrap());
    assert_eq!(store.get(r.id).await.unwrap(), Some(done));
}

#[tokio::test]
async fn the_sweep_forgets_expired_tasks_and_names_the_unfinished_ones() {
    let store = MemoryTaskStore::default();
    let short = record(Duration::from_millis(1));
    let long = record(Duration::from_secs(60));
    let short_done = finished(record(Duration::from_millis(1)));
    store.create(short.clone()).await.unwrap();
    store.create(short_done).await.unwrap();
    store.create(long.clone()).await.unwrap();
    let later = SystemTime::now() + Duration::from_secs(1);
    assert_eq!(store.sweep(later).await.unwrap(), vec![short.id]);
    assert_eq!(store.len(), 1);
    assert!(store.get(long.id).await.unwrap().is_some());
}

/// Reports, then answers.
#[tool]
async fn step(ctx: &ToolContext) -> &'static str {
    ctx.progress(0.5, Some("half".to_owned())).await;
    "done"
}

/// Never ends unless cancelled.
#[tool]
async fn hang() -> String {
    std::future::pending().await
}

async fn until(tasks: &Tasks, id: &str, status: TaskStatus) -> TaskRecord {
    tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            let r = tasks.get(id).await.unwrap();
            if r.status == status {
                return r;
            }
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    })
    .await
    .expect("the task gets there")
}

fn call_of(
    set: &Arc<ToolSet>,
    tool: &'static str,
) -> impl FnOnce(ToolContext) -> BoxFuture<'static, Outcome> {
    let set = Arc::clone(set);
    move |ctx| Box::pin(async move { set.execute_with_context(tool, &json!({}), ctx).await })
}

#[tokio::test]
async fn a_task_is_a_handle_and_its_record_follows_it() {
    let set = Arc::new(toolset![step, hang]);
    let tasks = Tasks::default();
    let settings = TaskSpec::new(TaskSupport::Required);
    let finish = Box::new(|outcome: Outcome| {
        let mut map = Map::new();
        map.insert("output".into(), outcome.unwrap().output);
        TaskOutcome::Result(map)
    });
    let first = tasks
        .start(
            "step",
            settings,
            ToolContext::new(),
            call_of(&set, "step"),
            finish,
        )
        .await
        .unwrap();
    assert_eq!(first.status, TaskStatus::Working);
    let id = first.id.to_string();
    let done = until(&tasks, &id, TaskStatus::Completed).await;
    assert_eq!(done.status_message.as_deref(), Some("half"));
    let mut expected = Map::new();
    expected.insert("output".into(), json!("done"));
    assert_eq!(done.outcome, Some(TaskOutcome::Result(expected)));

    let finish = Box::new(|_: Outcome| TaskOutcome::Result(Map::new()));
    let running = tasks
        .start(
            "hang",
            settings,
            ToolContext::new(),
            call_of(&set, "hang"),
            finish,
        )
        .await
        .unwrap();
    let id = running.id.to_string();
    let handle = tasks.handle(&id).expect("a running task is a handle");
    assert_eq!(handle.id(), running.id);
    tasks.cancel(&id).await.unwrap();
    let cancelled = until(&tasks, &id, TaskStatus::Cancelled).await;
    assert_eq!(cancelled.outcome, None);
    assert_eq!(handle.status(), HandleStatus::Cancelled);
    assert!(
        tasks.handle(&id).is_none(),
        "an ended task's handle is let go"
    );
}

/// A task id no earlier run used (the PostgreSQL table outlives a test run).
#[cfg(feature = "task-postgres")]
fn unique_id() -> TaskId {
    let nanos = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    let id = fresh_id().to_string();
    // The clock's low 64 bits: distinct between runs.
    let low = nanos & u128::from(u64::MAX);
    format!("{low:016x}{}", &id[16..]).parse().unwrap()
}

/// A replica whose store stops beating (dropped, as a killed process stops) has its unfinished
/// tasks failed by another replica on the database within the replica timeout and a beat; its
/// finished ones are left as they were. Needs `EXECUTOR_TEST_POSTGRES` (`.ci/fleet-peer.sh`).
#[cfg(feature = "task-postgres")]
#[tokio::test]
#[ignore = "needs EXECUTOR_TEST_POSTGRES (a PostgreSQL URL); run by .ci/fleet-peer.sh"]
async fn on_postgres_a_dead_replicas_unfinished_tasks_are_failed_by_another() {
    use tool_executor::task::PostgresTaskStore;
    let url = std::env::var("EXECUTOR_TEST_POSTGRES").expect("EXECUTOR_TEST_POSTGRES");
    let timeout = Duration::from_millis(300);
    let dead = PostgresTaskStore::connect_with(&url, timeout)
        .await
        .unwrap();
    let live = PostgresTaskStore::connect_with(&url, timeout)
        .await
        .unwrap();
    let hour = Duration::from_secs(3600);
    let mut running = record(hour);
    running.id = unique_id();
    let mut done = finished(record(hour));
    done.id = unique_id();
    dead.create(running.clone()).await.unwrap();
    dead.create(done.clone()).await.unwrap();
    assert_eq!(
        live.get(running.id).await.unwrap().map(|r| r.status),
        Some(TaskStatus::Working)
    );
    drop(dead);
    let failed = tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            let r = live.get(running.id).await.unwrap().unwrap();
            if r.status != TaskStatus::Working {
                return r;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    })
    .await
    .expect("the other replica fails the task");
    assert_eq!(failed.status, TaskStatus::Failed);
    let Some(TaskOutcome::Error(error)) = &failed.outcome else {
        panic!("a JSON-RPC error: {failed:?}");
    };
    assert_eq!(error["code"], -32603);
    assert_eq!(error["data"], json!({"code": "replica_lost"}));
    assert!(
        error["message"]
            .as_str()
            .unwrap()
            .contains("no heartbeat for 300 ms"),
        "{error:?}"
    );
    assert_eq!(live.get(done.id).await.unwrap(), Some(done));
}
