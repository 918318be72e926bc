//! `A2aToolExecutor` against our own agents over loopback: the quickstart's tools served by
//! `ToolAgent` (the agent `examples/a2a_agent --agent tools` runs) come back as the same tools,
//! with the same results and failures as a direct call, their progress, and a cancel that
//! reaches the agent. `.ci/a2a-peer.sh` runs the `#[ignore]`d test against the example binary.
#![cfg(feature = "a2a-client")]

#[path = "../../examples/quickstart.rs"]
#[allow(dead_code, unreachable_pub)] // the tour's `main` is not used here
mod quickstart;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tokio::sync::mpsc;
use tool_executor::agent::{
    A2aClientConfig, A2aResult, A2aToolExecutor, AgentServer, Emitter, EventQueueWriter,
    RequestContext, RunningAgent, ToolAgent,
};
use tool_executor::failure::transport::{RetryDecision, for_retry};
use tool_executor::prelude::*;
use tool_executor::{
    Classification, FailureKind, ToolExecution, ToolSet, ToolSpec, ToolStreamChunk,
};

/// Bounds every wait of a test.
const LIMIT: Duration = Duration::from_secs(20);

async fn serve(agent: ToolAgent) -> RunningAgent {
    AgentServer::bind("127.0.0.1:0", agent)
        .await
        .expect("bind")
        .spawn()
}

/// What `examples/a2a_agent --agent tools` serves.
async fn quickstart_agent() -> RunningAgent {
    serve(ToolAgent::new(quickstart::tools().unwrap()).with_name("Quickstart tools")).await
}

async fn connect(url: &str) -> A2aToolExecutor {
    tokio::time::timeout(LIMIT, A2aToolExecutor::connect(url))
        .await
        .expect("connect within the limit")
        .expect("connect")
}

async fn call(
    tools: &dyn ToolExecutor,
    tool: &str,
    args: &Value,
) -> Result<ToolExecution, ToolFailure> {
    tokio::time::timeout(
        LIMIT,
        tools.execute_with_context(tool, args, ToolContext::new()),
    )
    .await
    .unwrap_or_else(|_| panic!("`{tool}` did not answer within {LIMIT:?}"))
}

/// Everything a caller can see of a failure.
fn seen(failure: &ToolFailure) -> Value {
    json!({
        "message": failure.message(),
        "code": failure.code(),
        "kind": failure.kind().as_str(),
        "terminal": failure.classification() == Classification::Terminal,
        "unhandled": failure.is_unhandled(),
        "retry_after": failure.retry_after().map(|d| d.as_millis()),
        "data": failure.data(),
    })
}

/// The spec as an A2A card carries it: names, description, schemas, every hint as given,
/// the failure codes and the time limit.
fn carried(spec: &ToolSpec) -> Value {
    json!({
        "name": spec.name,
        "description": spec.description,
        "input": spec.input_schema,
        "output": spec.output_schema,
        "annotations": spec.annotations,
        "failure_codes": spec.failure_codes,
        "timeout": spec.timeout,
    })
}

/// Every quickstart tool through the agent at `url` and back: the same specs, results and
/// failures as the same call on the tools themselves.
async fn quickstart_round_trip(url: &str) {
    let direct: ToolSet = quickstart::tools().unwrap();
    let remote = connect(url).await;
    let specs: Vec<Value> = remote.specs().iter().map(|s| carried(s)).collect();
    let expected: Vec<Value> = direct.specs().iter().map(|s| carried(s)).collect();
    assert_eq!(specs, expected);

    let calls = [
        (
            "get_weather",
            json!({"city": "Paris", "unit": "fahrenheit"}),
        ),
        ("get_weather", json!({"city": "Oslo"})),
        ("add", json!({"a": 2, "b": 40})),
        (
            "join_words",
            json!({"words": ["a", "b", "c"], "separator": "-", "upper": true}),
        ),
        ("trim", json!({"text": "  padded  "})),
        // typed failures: terminal with data, ordinary with a retry hint, bad arguments, a
        // missing argument
        ("get_weather", json!({"city": "Atlantis"})),
        ("get_weather", json!({"city": "Busy"})),
        ("add", json!({"a": "two", "b": 1})),
        ("trim", json!({})),
    ];
    for (tool, args) in &calls {
        let got = call(&remote, tool, args).await;
        let want = call(&direct, tool, args).await;
        match (&got, &want) {
            (Ok(got), Ok(want)) => assert_eq!(got.output, want.output, "{tool}({args})"),
            (Err(got), Err(want)) => assert_eq!(seen(got), seen(want), "{tool}({args})"),
            _ => panic!("{tool}({args}): through A2A {got:?}, directly {want:?}"),
        }
    }

    // A2A carries numbers as protobuf doubles: an integer beyond 2^53 is refused before it is
    // sent (so `add`'s overflow cannot be reached through A2A), as bad arguments.
    let big = call(&remote, "add", &json!({"a": i64::MAX, "b": 1}))
        .await
        .unwrap_err();
    assert_eq!(big.kind(), FailureKind::InvalidArguments);
    assert_eq!(
        big.message(),
        "tool `add`: message.parts[0].data holds the integer 9223372036854775807, beyond the \
         ±2^53 a protobuf number holds exactly"
    );

    // The counter lives in the agent: what `bump` adds, `read` sees.
    let before = call(&remote, "read", &json!({})).await.unwrap().output;
    let bumped = call(&remote, "bump", &json!({"by": 3}))
        .await
        .unwrap()
        .output;
    assert_eq!(bumped, json!(before.as_u64().unwrap() + 3));
    assert_eq!(
        call(&remote, "read", &json!({})).await.unwrap().output,
        bumped
    );

    // A tool the card does not list is not served: unhandled, so a fallback may take it.
    let unknown = call(&remote, "nope", &json!({})).await.unwrap_err();
    assert_eq!(seen(&unknown), seen(&ToolFailure::unknown_tool("nope")));
    assert_eq!(for_retry(&unknown), RetryDecision::Fallback);
}

#[tokio::test]
async fn every_quickstart_tool_comes_back_through_a2a_as_called_directly() {
    let agent = quickstart_agent().await;
    quickstart_round_trip(agent.url()).await;
}

/// The same, against the agent `.ci/a2a-peer.sh` starts from `examples/a2a_agent --agent tools`.
#[tokio::test]
#[ignore = "needs EXECUTOR_A2A_TOOLS_URL (run by .ci/a2a-peer.sh)"]
async fn every_quickstart_tool_through_the_example_agent() {
    let url = std::env::var("EXECUTOR_A2A_TOOLS_URL").expect("EXECUTOR_A2A_TOOLS_URL");
    quickstart_round_trip(&url).await;
    progress_arrives_as_stream_chunks(&url).await;
}

async fn progress_arrives_as_stream_chunks(url: &str) {
    let remote = connect(url).await;
    let (tx, mut rx) = mpsc::channel(64);
    let ctx = ToolContext::new().with_stream(tx);
    let args = json!({"city": "Oslo"});
    let out = tokio::time::timeout(
        LIMIT,
        remote.execute_with_context("get_weather", &args, ctx),
    )
    .await
    .unwrap()
    .unwrap();
    assert_eq!(out.output["temperature"], json!(4.0));
    let chunks: Vec<ToolStreamChunk> = std::iter::from_fn(|| rx.try_recv().ok()).collect();
    assert_eq!(
        chunks,
        [ToolStreamChunk::Progress {
            fraction: 0.5,
            message: Some("asking the sky above Oslo".to_owned())
        }]
    );

    // The seed's streaming entry point: the same progress, then the result.
    let mut rx = remote
        .execute_stream("bump", &json!({"by": 1}), "a-1")
        .await
        .unwrap();
    let mut chunks = Vec::new();
    while let Some(chunk) = tokio::time::timeout(LIMIT, rx.recv()).await.unwrap() {
        chunks.push(chunk);
    }
    assert_eq!(
        chunks[0],
        ToolStreamChunk::Progress {
            fraction: 1.0,
            message: Some("bumped".to_owned())
        }
    );
    assert!(
        matches!(&chunks[1..], [ToolStreamChunk::Done { result: Some(n) }] if n.is_u64()),
        "{chunks:?}"
    );
}

/// Spells a word: one text chunk per letter, then the letter count as data.
#[tool]
async fn spell(word: &str, ctx: &ToolContext) -> Result<usize, ToolFailure> {
    let letters: Vec<char> = word.chars().collect();
    ctx.progress(0.0, Some(format!("spelling {word}"))).await;
    for letter in &letters {
        ctx.text(letter.to_string()).await;
    }
    ctx.emit(&json!({"letters": letters.len()})).await?;
    Ok(letters.len())
}

#[tokio::test]
async fn progress_and_streamed_output_become_chunks() {
    let agent = quickstart_agent().await;
    progress_arrives_as_stream_chunks(agent.url()).await;

    let agent = serve(ToolAgent::new(toolset![spell])).await;
    let remote = connect(agent.url()).await;
    let (tx, mut rx) = mpsc::channel(64);
    let ctx = ToolContext::new().with_stream(tx);
    let out = remote
        .execute_with_context("spell", &json!({"word": "ab"}), ctx)
        .await
        .unwrap();
    assert_eq!(out.output, json!(2));
    let chunks: Vec<Value> = std::iter::from_fn(|| rx.try_recv().ok())
        .map(|c| serde_json::to_value(c).unwrap())
        .collect();
    assert_eq!(
        chunks,
        [
            json!({"kind": "progress", "fraction": 0.0, "message": "spelling ab"}),
            json!({"kind": "text", "text": "a"}),
            json!({"kind": "text", "text": "b"}),
            json!({"kind": "data", "data": {"letters": 2}}),
        ]
    );
}

/// How many `wait` calls the agent dropped (cancelled) so far.
static DROPPED: AtomicUsize = AtomicUsize::new(0);

struct CountDrop;

impl Drop for CountDrop {
    fn drop(&mut self) {
        DROPPED.fetch_add(1, Ordering::SeqCst);
    }
}

/// Waits a minute, counting the calls that are dropped before.
#[tool]
async fn wait() -> String {
    let guard = CountDrop;
    tokio::time::sleep(Duration::from_secs(60)).await;
    std::mem::forget(guard);
    "waited".to_owned()
}

async fn dropped_reaches(n: usize) {
    let started = Instant::now();
    while DROPPED.load(Ordering::SeqCst) < n {
        assert!(
            started.elapsed() < LIMIT,
            "the agent never cancelled the tool"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

// One test, so the shared drop count is not raced by another test's calls.
#[tokio::test]
async fn a_call_that_times_out_or_is_cancelled_cancels_the_remote_task() {
    let agent = serve(ToolAgent::new(toolset![wait])).await;
    let remote = connect(agent.url()).await;

    // The call's budget bounds the wait; the dropped stream cancels the task.
    let started = Instant::now();
    let ctx = ToolContext::new().with_timeout(Duration::from_millis(300));
    let failure = remote
        .execute_with_context("wait", &json!({}), ctx)
        .await
        .unwrap_err();
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(failure.kind(), FailureKind::Timeout, "{failure:?}");
    // The budget left when the call started: 300 ms, give or take the clock.
    assert!(
        failure.message().starts_with("tool `wait` timed out after"),
        "{failure:?}"
    );
    dropped_reaches(1).await;

    // The caller's cancellation token.
    let token = tokio_util::sync::CancellationToken::new();
    let ctx = ToolContext::new().with_cancellation(token.clone());
    let no_args = json!({});
    let call = remote.execute_with_context("wait", &no_args, ctx);
    let cancel = async {
        tokio::time::sleep(Duration::from_millis(300)).await;
        token.cancel();
    };
    let (failure, ()) = tokio::join!(call, cancel);
    assert_eq!(failure.unwrap_err().kind(), FailureKind::Cancelled);
    dropped_reaches(2).await;

    // A caller that simply stops waiting (the future dropped).
    let call = remote.execute_with_context("wait", &no_args, ToolContext::new());
    assert!(
        tokio::time::timeout(Duration::from_millis(300), call)
            .await
            .is_err()
    );
    dropped_reaches(3).await;

    // The executor's own backstop bounds a call whose context has no budget.
    let config = A2aClientConfig::new(agent.url()).with_request_timeout(Duration::from_millis(200));
    let short = A2aToolExecutor::connect_with(config).await.unwrap();
    let failure = short.execute("wait", &json!({})).await.unwrap_err();
    assert_eq!(failure, "tool `wait` timed out after 200ms");
    dropped_reaches(4).await;
}

/// Answers with the text it received, without streaming.
#[tool_executor::agent(
    name = "Echo",
    skill(id = "echo", name = "Echo", description = "Answers with the text.", tags = ["echo"], examples = ["hello"]),
    skill(id = "refuse", name = "Refuse", description = "Fails.", tags = ["no"]),
)]
impl Echo {
    async fn execute(&self, ctx: &RequestContext, queue: &dyn EventQueueWriter) -> A2aResult<()> {
        let emit = Emitter::new(ctx, queue);
        let text = ctx.message.text().unwrap_or_default().to_owned();
        if text == "refuse" {
            return emit
                .fail(
                    tool_executor::agent::FailureClass::PolicyRefusal,
                    "not today",
                    "refused",
                )
                .await;
        }
        emit.text_artifact("echo", text).await?;
        emit.complete().await
    }
}

struct Echo;

#[tokio::test]
async fn a_plain_skill_takes_a_text_message_and_answers_with_its_artifacts() {
    let agent = AgentServer::bind("127.0.0.1:0", Echo)
        .await
        .unwrap()
        .spawn();
    let remote = connect(agent.url()).await;
    let spec = &remote.specs()[0];
    assert_eq!(spec.name, "echo");
    assert_eq!(spec.description, "Answers with the text.");
    assert_eq!(
        spec.input_schema,
        json!({
            "type": "object",
            "properties": {"text": {"type": "string", "description":
                "The message to send to the agent's `echo` skill. For example: hello"}},
            "required": ["text"],
            "additionalProperties": false
        })
    );
    // No streaming on the card: a blocking send.
    assert_eq!(
        remote.execute("echo", &json!({"text": "hi"})).await,
        Ok(json!("hi"))
    );

    let refused = call(&remote, "refuse", &json!({"text": "refuse"}))
        .await
        .unwrap_err();
    assert_eq!(
        seen(&refused),
        json!({"message": "not today", "code": "refused", "kind": "tool", "terminal": true,
               "unhandled": false, "retry_after": null, "data": null})
    );

    let bad = call(&remote, "echo", &json!({"text": 1}))
        .await
        .unwrap_err();
    assert_eq!(bad.message(), "text: expected a string, got 1");
    assert_eq!(bad.kind(), FailureKind::InvalidArguments);
    let missing = call(&remote, "echo", &json!({})).await.unwrap_err();
    assert_eq!(missing.message(), "text: missing required argument");
}

#[tokio::test]
async fn connecting_to_nothing_fails_in_bounded_time() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    drop(listener);
    let error = tokio::time::timeout(LIMIT, A2aToolExecutor::connect(url.as_str()))
        .await
        .unwrap()
        .unwrap_err();
    assert_eq!(error.url, url);
    assert!(
        error.detail.starts_with("could not read the agent card"),
        "{error}"
    );

    // A listener that never answers: the connect timeout.
    let silent = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", silent.local_addr().unwrap());
    let config = A2aClientConfig::new(url).with_connect_timeout(Duration::from_millis(200));
    let started = Instant::now();
    let error = A2aToolExecutor::connect_with(config).await.unwrap_err();
    assert!(started.elapsed() < Duration::from_secs(5));
    assert_eq!(
        error.detail,
        "no agent card within 200 ms (the connect timeout)"
    );
}
