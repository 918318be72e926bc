//! The macros' agents called directly with a recording queue: what they write, and the ends the
//! `TaskQueue` guarantees whatever the server would do on its own.
#![cfg(feature = "a2a")]

use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{Arc, Mutex};

use serde_json::json;
use tool_executor::ToolFailure;
use tool_executor::agent::types::events::StreamResponse;
use tool_executor::agent::types::task::TaskId;
use tool_executor::agent::{
    A2aError, A2aResult, Agent, AgentExecutor, Emitter, EventQueueWriter, Message, Part,
    RequestContext, TaskState,
};

/// Records every event; `Err` when told to refuse.
#[derive(Clone, Default)]
struct Recorder(Arc<Mutex<Vec<StreamResponse>>>);

impl EventQueueWriter for Recorder {
    fn write(&self, event: StreamResponse) -> tool_executor::tool::BoxFuture<'_, A2aResult<()>> {
        self.0.lock().unwrap().push(event);
        Box::pin(std::future::ready(Ok(())))
    }

    fn close(&self) -> tool_executor::tool::BoxFuture<'_, A2aResult<()>> {
        Box::pin(std::future::ready(Ok(())))
    }
}

impl Recorder {
    /// `working`, `completed`, `artifact`, … for each event.
    fn kinds(&self) -> Vec<String> {
        self.0.lock().unwrap().iter().map(kind).collect()
    }

    fn events(&self) -> Vec<StreamResponse> {
        self.0.lock().unwrap().clone()
    }
}

fn kind(event: &StreamResponse) -> String {
    match event {
        StreamResponse::StatusUpdate(u) => state_name(u.status.state),
        StreamResponse::ArtifactUpdate(_) => "artifact".to_owned(),
        StreamResponse::Task(t) => format!("task:{}", state_name(t.status.state)),
        _ => "message".to_owned(),
    }
}

fn state_name(state: TaskState) -> String {
    serde_json::to_value(state)
        .unwrap()
        .as_str()
        .unwrap()
        .trim_start_matches("TASK_STATE_")
        .to_lowercase()
}

fn ctx(text: &str) -> RequestContext {
    RequestContext::new(
        Message::user("m-1", vec![Part::text(text)]),
        TaskId::new("task-1"),
        "ctx-1".to_owned(),
    )
}

async fn run(agent: &dyn AgentExecutor, ctx: &RequestContext) -> (A2aResult<()>, Vec<String>) {
    let queue = Recorder::default();
    let result = tokio::time::timeout(
        std::time::Duration::from_secs(10),
        agent.execute(ctx, &queue),
    )
    .await
    .expect("execute finished");
    (result, queue.kinds())
}

struct Quiet;
tool_executor::agent_executor!(Quiet, |_ctx, queue| async {
    let _ = queue;
    Ok(())
});

#[tokio::test]
async fn ok_without_a_terminal_state_completes_the_task() {
    let (result, kinds) = run(&Quiet, &ctx("hi")).await;
    assert!(result.is_ok());
    assert_eq!(kinds, ["completed"]);
}

/// Writes through the raw queue, and is cancelled half-way by its own request.
struct Stubborn;
tool_executor::agent_executor!(Stubborn, |ctx, queue| async move {
    let working = tool_executor::agent::types::events::TaskStatusUpdateEvent {
        task_id: ctx.task_id.clone(),
        context_id: ctx.context_id.clone().into(),
        status: tool_executor::agent::types::task::TaskStatus::new(TaskState::Working),
        metadata: None,
    };
    queue
        .write(StreamResponse::StatusUpdate(working.clone()))
        .await?;
    ctx.cancellation_token.cancel();
    queue
        .write(StreamResponse::StatusUpdate(working.clone()))
        .await?;
    let emit = Emitter::new(ctx, queue);
    emit.text_artifact("late", "after the cancel").await?;
    let mut done = working;
    done.status = tool_executor::agent::types::task::TaskStatus::new(TaskState::Completed);
    queue.write(StreamResponse::StatusUpdate(done)).await?;
    Ok(())
});

#[tokio::test]
async fn after_cancellation_only_the_canceled_state_is_written() {
    let (result, kinds) = run(&Stubborn, &ctx("hi")).await;
    assert!(result.is_ok());
    assert_eq!(kinds, ["working", "canceled"]);
}

struct Failing;
tool_executor::agent_executor!(Failing, |ctx, _queue| async move {
    if ctx.message.text() == Some("fail") {
        return Err(A2aError::invalid_params("no"));
    }
    ctx.cancellation_token.cancel();
    Err(A2aError::internal("saw the cancel"))
});

#[tokio::test]
async fn an_error_goes_to_the_server_unless_the_task_was_cancelled() {
    let (result, kinds) = run(&Failing, &ctx("fail")).await;
    assert_eq!(result.unwrap_err().message, "no");
    assert!(
        kinds.is_empty(),
        "the server writes `failed` for an error: {kinds:?}"
    );
    let (result, kinds) = run(&Failing, &ctx("cancel")).await;
    assert!(result.is_ok());
    assert_eq!(kinds, ["canceled"]);
}

struct Panicky;
tool_executor::agent_executor!(Panicky, |ctx, _queue| async move {
    assert!(ctx.message.text().is_none(), "boom");
    Ok(())
});

#[tokio::test]
async fn a_panic_fails_the_task() {
    let (result, _) = run(&Panicky, &ctx("hi")).await;
    let error = result.unwrap_err();
    assert_eq!(error.message, "the agent panicked: boom");
}

/// Asks a question, then answers after the terminal state (dropped).
struct Asking;
tool_executor::agent_executor!(Asking, |ctx, queue| async move {
    let emit = Emitter::new(ctx, queue);
    if ctx.message.text() == Some("ask") {
        emit.input_required("which city?").await?;
        return Ok(());
    }
    emit.complete_with_message("done").await?;
    emit.working("after the end").await?;
    Emitter::new(ctx, queue)
        .working("a second emitter after the end")
        .await?;
    Ok(())
});

#[tokio::test]
async fn input_required_parks_and_nothing_follows_a_terminal_state() {
    let (result, kinds) = run(&Asking, &ctx("ask")).await;
    assert!(result.is_ok());
    assert_eq!(kinds, ["input_required"]);
    let (result, kinds) = run(&Asking, &ctx("answer")).await;
    assert!(result.is_ok());
    assert_eq!(kinds, ["completed"]);
}

/// A stateful, generic agent with every arm, `?`, `async move` and trailing commas.
struct Counter<T> {
    label: T,
    runs: AtomicU32,
    cancels: AtomicU32,
    shut_down: AtomicBool,
}

tool_executor::agent_executor!(
    impl<T: std::fmt::Display + Send + Sync + 'static> Counter<T> where T: Clone,
    execute: |ctx, queue| async move {
        let n = self.runs.fetch_add(1, Ordering::SeqCst) + 1;
        let text = ctx.message.text().ok_or_else(|| A2aError::invalid_params("send text"))?;
        Emitter::new(ctx, queue)
            .complete_with_message(format!("{} {n}: {text}", self.label.clone()))
            .await
    },
    cancel: |_ctx, queue| async {
        self.cancels.fetch_add(1, Ordering::SeqCst);
        let _ = queue;
        Ok(())
    },
    on_shutdown: || async {
        self.shut_down.store(true, Ordering::SeqCst);
    },
);

#[tokio::test]
async fn every_arm_reaches_the_agents_state() {
    let counter = Counter {
        label: "run",
        runs: AtomicU32::new(0),
        cancels: AtomicU32::new(0),
        shut_down: AtomicBool::new(false),
    };
    let queue = Recorder::default();
    counter.execute(&ctx("a"), &queue).await.unwrap();
    counter.execute(&ctx("b"), &queue).await.unwrap();
    let texts: Vec<String> = queue
        .events()
        .iter()
        .filter_map(|e| match e {
            StreamResponse::StatusUpdate(u) => u
                .status
                .message
                .as_ref()
                .and_then(|m| m.text())
                .map(str::to_owned),
            _ => None,
        })
        .collect();
    assert_eq!(texts, ["run 1: a", "run 2: b"]);

    let no_text = RequestContext::new(
        Message::user("m", vec![Part::data(json!(1))]),
        TaskId::new("t"),
        "c".into(),
    );
    let error = counter
        .execute(&no_text, &Recorder::default())
        .await
        .unwrap_err();
    assert_eq!(error.message, "send text");

    // A cancel hook that writes nothing gets `canceled` written after it.
    let queue = Recorder::default();
    counter.cancel(&ctx("x"), &queue).await.unwrap();
    assert_eq!(counter.cancels.load(Ordering::SeqCst), 1);
    assert_eq!(queue.kinds(), ["canceled"]);

    counter.on_shutdown().await;
    assert!(counter.shut_down.load(Ordering::SeqCst));
}

struct Cleaner;
tool_executor::agent_executor!(Cleaner,
    execute: |_ctx, _queue| async { Ok(()) },
    cancel: |ctx, queue| async move {
        let emit = Emitter::new(ctx, queue);
        emit.working("cleaning up").await?;
        emit.complete().await
    }
);

#[tokio::test]
async fn a_cancel_hook_writes_nothing_but_canceled() {
    let queue = Recorder::default();
    Cleaner.cancel(&ctx("x"), &queue).await.unwrap();
    assert_eq!(queue.kinds(), ["canceled"]);
}

/// Counts words, keeping a total.
#[tool_executor::agent(
    streaming,
    input_modes = ["text/plain"],
    output_modes = ["application/json"],
    skill(id = "count", tags = ["words"]),
    skill(id = "total", name = "Total", description = "The running total.", tags = ["words", "sum"]),
)]
impl WordCounter {
    /// Counts the words of the message.
    async fn execute(&self, ctx: &RequestContext, queue: &dyn EventQueueWriter) -> A2aResult<()> {
        let emit = Emitter::new(ctx, queue);
        let words = u32::try_from(
            ctx.message
                .text()
                .unwrap_or_default()
                .split_whitespace()
                .count(),
        )
        .map_err(|_| A2aError::invalid_params("too many words"))?;
        let total = self.total.fetch_add(words, Ordering::SeqCst) + words;
        emit.data_artifact("count", json!({"words": words, "total": total}))
            .await
    }

    async fn cancel(&self, ctx: &RequestContext, queue: &dyn EventQueueWriter) -> A2aResult<()> {
        self.cancelled.store(true, Ordering::SeqCst);
        Emitter::new(ctx, queue).cancel().await;
        Ok(())
    }

    #[allow(clippy::unused_async)] // the hook is async; this one has nothing to wait for
    async fn on_shutdown(&self) {
        self.shut_down.store(true, Ordering::SeqCst);
    }

    /// Not a hook: stays an ordinary method.
    fn total(&self) -> u32 {
        self.total.load(Ordering::SeqCst)
    }
}

#[derive(Default)]
struct WordCounter {
    total: AtomicU32,
    cancelled: AtomicBool,
    shut_down: AtomicBool,
}

#[tokio::test]
async fn an_agent_impl_block_is_an_executor_with_a_card() {
    let agent = WordCounter::default();
    let (result, kinds) = run(&agent, &ctx("one two three")).await;
    assert!(result.is_ok());
    assert_eq!(kinds, ["artifact", "completed"]);
    assert_eq!(agent.total(), 3);
    // The inherent method is still callable as written.
    let queue = Recorder::default();
    WordCounter::execute(&agent, &ctx("four"), &queue)
        .await
        .unwrap();
    assert_eq!(queue.kinds(), ["artifact"]);
    assert_eq!(agent.total(), 4);

    AgentExecutor::cancel(&agent, &ctx("x"), &Recorder::default())
        .await
        .unwrap();
    assert!(agent.cancelled.load(Ordering::SeqCst));
    AgentExecutor::on_shutdown(&agent).await;
    assert!(agent.shut_down.load(Ordering::SeqCst));

    let card = agent.card("http://127.0.0.1:9");
    assert_eq!(card.validate(), Ok(()));
    let card = serde_json::to_value(&card).unwrap();
    assert_eq!(card["name"], "WordCounter");
    assert_eq!(card["description"], "Counts words, keeping a total.");
    assert_eq!(card["version"], env!("CARGO_PKG_VERSION"));
    assert_eq!(card["capabilities"], json!({"streaming": true}));
    assert_eq!(card["defaultOutputModes"], json!(["application/json"]));
    assert_eq!(
        card["skills"],
        json!([
            {"id": "count", "name": "count", "description": "Counts words, keeping a total.", "tags": ["words"]},
            {"id": "total", "name": "Total", "description": "The running total.", "tags": ["words", "sum"]},
        ])
    );
}

struct Reporter;
tool_executor::agent_executor!(Reporter, |ctx, queue| async move {
    let emit = Emitter::new(ctx, queue);
    emit.progress(0.5, None).await?;
    emit.chunk("out", vec![Part::text("a")], false).await?;
    emit.chunk("out", vec![Part::text("b")], true).await?;
    emit.fail_with(&ToolFailure::terminal("disk full").with_code("disk_full"))
        .await
});

#[tokio::test]
async fn the_emitter_writes_progress_chunks_and_classified_failures() {
    let queue = Recorder::default();
    Reporter.execute(&ctx("go"), &queue).await.unwrap();
    let events = serde_json::to_value(queue.events()).unwrap();
    assert_eq!(
        events[0]["statusUpdate"]["metadata"],
        json!({"progress": 0.5})
    );
    assert_eq!(
        events[0]["statusUpdate"]["status"]["message"]["parts"][0]["text"],
        "50%"
    );
    assert_eq!(events[1]["artifactUpdate"]["append"], false);
    assert_eq!(events[1]["artifactUpdate"]["lastChunk"], false);
    assert_eq!(events[2]["artifactUpdate"]["append"], true);
    assert_eq!(events[2]["artifactUpdate"]["lastChunk"], true);
    let failed = &events[3]["statusUpdate"];
    assert_eq!(failed["status"]["state"], "TASK_STATE_FAILED");
    assert_eq!(failed["status"]["message"]["parts"][0]["text"], "disk full");
    // A terminal tool failure "will be wrong again": the failure table maps it to
    // `invalid-request`; `internal` is kept for failures of kind internal (the agent broke).
    assert_eq!(
        failed["status"]["message"]["metadata"]["a2a-rust.com/failure"],
        "invalid-request"
    );
    assert_eq!(
        failed["metadata"],
        json!({"error": "disk full", "code": "disk_full"})
    );
    assert_eq!(events.as_array().unwrap().len(), 4, "{events}");
}

#[tokio::test]
async fn the_emitter_alone_writes_only_canceled_after_a_cancel() {
    // A hand-written executor gets the same ends from `Emitter` over the server's raw queue.
    let queue = Recorder::default();
    let ctx = ctx("x");
    let emit = Emitter::new(&ctx, &queue);
    emit.working("before").await.unwrap();
    ctx.cancellation_token.cancel();
    assert!(emit.is_cancelled());
    emit.working("after").await.unwrap();
    emit.text_artifact("a", "after").await.unwrap();
    emit.complete().await.unwrap();
    assert!(emit.end_if_cancelled().await);
    assert!(emit.has_ended());
    assert_eq!(queue.kinds(), ["working", "canceled"]);
}

#[tokio::test]
async fn until_cancelled_drops_the_wait_and_ends_the_task() {
    let queue = Recorder::default();
    let ctx = ctx("x");
    let emit = Emitter::new(&ctx, &queue);
    let token = ctx.cancellation_token.clone();
    tokio::spawn(async move {
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        token.cancel();
    });
    let waited = emit
        .until_cancelled(tokio::time::sleep(std::time::Duration::from_secs(60)))
        .await;
    assert!(waited.is_none());
    assert_eq!(queue.kinds(), ["canceled"]);
    assert_eq!(
        emit.until_cancelled(async { 7 }).await,
        None,
        "already cancelled"
    );
}
