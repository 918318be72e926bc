//! Questions inside a task: a task's call that asks turns the task `input_required` with the
//! question in `input_requests`; `Tasks::answer` (what `tasks/update` calls) lets the call go
//! on where it waited, without running its body again, also when the answer reaches another
//! process sharing the store.

use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use serde_json::{Map, Value, json};
use tool_executor::elicit::{Answer, Form};
use tool_executor::prelude::*;
use tool_executor::task::{
    MemoryTaskStore, TaskOutcome, TaskRecord, TaskSpec, TaskStatus, TaskStore, TaskSupport, Tasks,
};
use tool_executor::tool::BoxFuture;
use tool_executor::{ToolExecution, ToolSet};

type Outcome = Result<ToolExecution, ToolFailure>;

/// How many times a body started: the test's own counter, in the call's context.
#[derive(Default)]
struct Started(AtomicU32);

#[derive(Form, Debug)]
struct Size {
    /// How many pages.
    #[form(min = 1, max = 100)]
    pages: u32,
}

/// Writes a report, asking how long, then to confirm.
#[tool]
async fn report(ctx: &ToolContext) -> Result<String, ToolFailure> {
    if let Some(started) = ctx.extension::<Arc<Started>>() {
        started.0.fetch_add(1, Ordering::SeqCst);
    }
    let Answer::Accepted(size) = ctx.elicit::<Size>("How long?").await? else {
        return Ok("no report".into());
    };
    let ok = ctx.confirm(format!("Write {} pages?", size.pages)).await?;
    Ok(if ok {
        format!("{} pages written", size.pages)
    } else {
        "not written".into()
    })
}

/// The task's record once `done` holds for it.
async fn until_record(tasks: &Tasks, id: &str, done: impl Fn(&TaskRecord) -> bool) -> TaskRecord {
    tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            let r = tasks.get(id).await.unwrap();
            if done(&r) {
                return r;
            }
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    })
    .await
    .unwrap_or_else(|_| panic!("task {id} never got there"))
}

async fn until(tasks: &Tasks, id: &str, status: TaskStatus) -> TaskRecord {
    until_record(tasks, id, |r| r.status == status).await
}

/// The task's record once it asks the question `key`.
async fn until_asked(tasks: &Tasks, id: &str, key: &str) -> TaskRecord {
    until_record(tasks, id, |r| {
        r.input_requests
            .as_ref()
            .is_some_and(|q| q.contains_key(key))
    })
    .await
}

fn responses(key: &str, answer: Value) -> Map<String, Value> {
    Map::from_iter([(key.to_owned(), answer)])
}

async fn start(tasks: &Tasks, set: &Arc<ToolSet>, ctx: ToolContext) -> String {
    let set = Arc::clone(set);
    let call = move |ctx: ToolContext| -> BoxFuture<'static, Outcome> {
        Box::pin(async move { set.execute_with_context("report", &json!({}), ctx).await })
    };
    let finish = Box::new(|outcome: Outcome| {
        let mut map = Map::new();
        map.insert(
            "output".into(),
            outcome.map_or_else(|f| json!(f.message()), |e| e.output),
        );
        TaskOutcome::Result(map)
    });
    let settings =
        TaskSpec::new(TaskSupport::Required).with_poll_interval(Duration::from_millis(20));
    let first = tasks
        .start("report", settings, ctx, call, finish)
        .await
        .unwrap();
    first.id.to_string()
}

fn output(record: &TaskRecord) -> Value {
    let Some(TaskOutcome::Result(map)) = &record.outcome else {
        panic!("a result: {record:?}");
    };
    map["output"].clone()
}

#[tokio::test]
async fn a_question_makes_the_task_input_required_and_the_answer_resumes_it_in_place() {
    let set = Arc::new(toolset![report]);
    let tasks = Tasks::default();
    let started = Arc::new(Started::default());
    let ctx = ToolContext::new().with_extension(Arc::clone(&started));
    let id = start(&tasks, &set, ctx).await;

    let asking = until(&tasks, &id, TaskStatus::InputRequired).await;
    let requests = asking.input_requests.clone().unwrap();
    assert_eq!(
        Value::Object(requests),
        json!({"q0": {"method": "elicitation/create",
                      "params": {"mode": "form", "message": "How long?",
                                 "requestedSchema": Size::schema()}}})
    );
    // A key that is not outstanding is ignored.
    tasks
        .answer(&id, responses("q7", json!({"action": "accept"})))
        .await
        .unwrap();
    assert_eq!(
        tasks.get(&id).await.unwrap().status,
        TaskStatus::InputRequired
    );

    tasks
        .answer(
            &id,
            responses("q0", json!({"action": "accept", "content": {"pages": 12}})),
        )
        .await
        .unwrap();
    // the second question
    let second = until_asked(&tasks, &id, "q1").await;
    assert_eq!(second.status, TaskStatus::InputRequired);
    assert_eq!(
        second.input_requests.unwrap()["q1"]["params"]["message"],
        "Write 12 pages?"
    );

    tasks
        .answer(&id, responses("q1", json!({"action": "accept"})))
        .await
        .unwrap();
    let done = until(&tasks, &id, TaskStatus::Completed).await;
    assert_eq!(output(&done), json!("12 pages written"));
    assert_eq!(done.input_requests, None);
    assert_eq!(
        started.0.load(Ordering::SeqCst),
        1,
        "the body ran once: answered in place, not run again"
    );
}

#[tokio::test]
async fn an_answer_through_another_process_reaches_the_task_through_the_store() {
    let set = Arc::new(toolset![report]);
    let store: Arc<dyn TaskStore> = Arc::new(MemoryTaskStore::default());
    let runs = Tasks::with_store(Arc::clone(&store));
    let other = Tasks::with_store(store);
    let id = start(&runs, &set, ToolContext::new()).await;

    until(&other, &id, TaskStatus::InputRequired).await;
    other
        .answer(
            &id,
            responses("q0", json!({"action": "accept", "content": {"pages": 3}})),
        )
        .await
        .unwrap();
    // the runner took the answer in from the store
    let second = until_asked(&other, &id, "q1").await;
    assert_eq!(second.input_responses, None, "taken in, then cleared");
    other
        .answer(&id, responses("q1", json!({"action": "decline"})))
        .await
        .unwrap();
    let done = until(&other, &id, TaskStatus::Completed).await;
    assert_eq!(output(&done), json!("not written"));
}

#[tokio::test]
async fn a_task_cancelled_while_it_waits_ends_cancelled() {
    let set = Arc::new(toolset![report]);
    let tasks = Tasks::default();
    let id = start(&tasks, &set, ToolContext::new()).await;
    until(&tasks, &id, TaskStatus::InputRequired).await;
    tasks.cancel(&id).await.unwrap();
    let cancelled = until(&tasks, &id, TaskStatus::Cancelled).await;
    assert_eq!(cancelled.input_requests, None);
    // Answering a finished task changes nothing.
    tasks
        .answer(&id, responses("q0", json!({"action": "accept"})))
        .await
        .unwrap();
    assert_eq!(tasks.get(&id).await.unwrap().status, TaskStatus::Cancelled);
}
