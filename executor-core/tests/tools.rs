//! Behaviour of generated tools: specs against snapshots, calls against expected JSON, and the
//! runtime contracts (errors, panics, timeouts, cancellation, streaming, state changes).

// The tools under test are written the ways users write them: async without awaits, owned
// parameters, methods that ignore `self`.
#![allow(
    clippy::unused_async,
    clippy::needless_pass_by_value,
    clippy::unused_self
)]

mod common;

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use common::assert_snapshot;
use executor_core::prelude::*;
use executor_core::{BoxFuture, FailureKind, Tool, ToolSet, ToolSpec, ToolStreamChunk};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use tokio_util::sync::CancellationToken;

/// Temperature unit.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Unit {
    /// Degrees Celsius.
    #[default]
    Celsius,
    /// Degrees Fahrenheit.
    Fahrenheit,
}

/// Where to look.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct Location {
    /// City name.
    pub city: String,
    /// Country code.
    pub country: Option<String>,
}

/// A report.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Report {
    /// Where.
    pub place: String,
    /// How warm.
    pub temperature: f64,
    /// In what.
    pub unit: Unit,
}

/// Looks up the weather.
///
/// Second paragraph of the description.
#[tool(read_only, open_world, title = "Weather", timeout = "5s")]
async fn weather(
    /// Where to look up.
    location: Location,
    /// Which unit.
    #[arg(default)]
    unit: Unit,
    /// How many days.
    days: u32,
    tags: Vec<String>,
) -> Result<Report, ToolFailure> {
    let _ = (days, tags);
    if location.city == "Atlantis" {
        return Err(ToolFailure::terminal("no such city").with_code("unknown_city"));
    }
    Ok(Report {
        place: format!(
            "{}, {}",
            location.city,
            location.country.as_deref().unwrap_or("??")
        ),
        temperature: 21.5,
        unit,
    })
}

/// Adds two numbers.
///
/// # Arguments
/// * `a` - The first addend.
/// * `b` - The second addend.
#[tool(idempotent)]
fn add(a: i64, b: i64) -> i64 {
    a + b
}

/// Joins words.
#[tool(name = "join_words", destructive = false)]
fn join(
    /// The words.
    words: &[&str],
    #[arg(default = Cow::Borrowed(" "))] separator: Cow<'_, str>,
    #[arg(rename = "upper", description = "Upper-case it")] shout: Option<bool>,
) -> String {
    let joined = words.join(&separator);
    if shout == Some(true) {
        joined.to_uppercase()
    } else {
        joined
    }
}

/// Says where a string lives, to prove it was not copied.
#[tool]
fn address_of(text: &str) -> u64 {
    text.as_ptr() as u64
}

/// Takes nothing.
#[tool]
async fn ping() -> &'static str {
    "pong"
}

/// Returns nothing.
#[tool]
fn noop(#[arg(default)] _ignored: bool) {}

/// Panics.
#[tool]
async fn boom(#[arg(default)] message: Option<String>) -> u8 {
    panic!("{}", message.unwrap_or_else(|| "secret=hunter2".to_owned()))
}

/// Sleeps past its timeout.
#[tool(timeout = "30ms")]
async fn sleepy(ctx: &ToolContext) -> u8 {
    let _ = ctx;
    tokio::time::sleep(Duration::from_secs(30)).await;
    1
}

/// Sets a flag when its future is dropped.
struct DropFlag(Arc<AtomicBool>);

impl Drop for DropFlag {
    fn drop(&mut self) {
        self.0.store(true, Ordering::SeqCst);
    }
}

static SLOW_DROPPED: std::sync::LazyLock<Arc<AtomicBool>> =
    std::sync::LazyLock::new(|| Arc::new(AtomicBool::new(false)));

/// Reports progress, emits data, then waits forever.
#[tool]
async fn slow(ctx: &ToolContext, #[arg(default)] finish: bool) -> Result<String, ToolFailure> {
    let _guard = DropFlag(Arc::clone(&SLOW_DROPPED));
    ctx.progress(0.25, Some("started".to_owned())).await;
    ctx.emit(&json!({"partial": 1})).await?;
    ctx.text("some text").await;
    if finish {
        return Ok("finished".to_owned());
    }
    std::future::pending::<()>().await;
    unreachable!()
}

static NAP_DROPPED: std::sync::LazyLock<Arc<AtomicBool>> =
    std::sync::LazyLock::new(|| Arc::new(AtomicBool::new(false)));

/// Waits forever without a context (so a set calls it without one unless the call has a
/// deadline or a token).
#[tool]
async fn nap() -> u8 {
    let _guard = DropFlag(Arc::clone(&NAP_DROPPED));
    std::future::pending::<()>().await;
    unreachable!()
}

/// Tells what the context says.
#[tool]
fn whoami(ctx: &ToolContext) -> Value {
    json!({
        "action_id": ctx.action_id(),
        "session_id": ctx.session_id(),
        "attempt": ctx.attempt(),
        "has_deadline": ctx.deadline().is_some(),
    })
}

/// Records a state change.
#[tool]
fn remember(key: String, value: Value, ctx: &ToolContext) -> bool {
    ctx.record_state_change(key, value);
    true
}

type TextResult<T> = Result<T, String>;

/// Fails with plain text through a `Result` alias.
#[tool]
fn refuse(reason: String) -> TextResult<u8> {
    Err(reason)
}

fn set() -> ToolSet {
    toolset![
        weather, add, join, address_of, ping, noop, boom, sleepy, slow, whoami, remember, refuse,
        nap
    ]
}

fn rt() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap()
}

async fn call(tools: &ToolSet, tool: &str, params: Value) -> Result<Value, ToolFailure> {
    tools
        .execute_with_context(tool, &params, ToolContext::new())
        .await
        .map(|e| e.output)
}

// ---- specs ----

#[test]
fn specs_match_snapshots() {
    let tools = set();
    for spec in tools.list() {
        assert_snapshot(
            &format!("spec_{}", spec.name),
            &serde_json::to_value(&**spec).unwrap(),
        );
    }
    let names: Vec<&str> = tools.list().iter().map(|s| s.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "weather",
            "add",
            "join_words",
            "address_of",
            "ping",
            "noop",
            "boom",
            "sleepy",
            "slow",
            "whoami",
            "remember",
            "refuse",
            "nap"
        ],
        "specs are listed in the order tools were added"
    );
}

#[test]
fn descriptions_come_from_docs_and_arguments_sections() {
    let spec = add::spec();
    assert_eq!(spec.description, "Adds two numbers.");
    assert_eq!(
        spec.input_schema["properties"]["a"]["description"],
        "The first addend."
    );
    let weather = weather::spec();
    assert_eq!(
        weather.description,
        "Looks up the weather.\n\nSecond paragraph of the description."
    );
    assert_eq!(
        weather.input_schema["properties"]["location"]["description"],
        "Where to look up."
    );
    assert_eq!(
        weather.input_schema["required"],
        json!(["location", "days", "tags"])
    );
    assert_eq!(weather.timeout, Some(Duration::from_secs(5)));
    let join = join::spec();
    assert_eq!(
        join.input_schema["properties"]["upper"]["description"],
        "Upper-case it"
    );
    assert!(join.input_schema["properties"].get("shout").is_none());
}

#[test]
fn specs_are_built_once_and_shared() {
    assert!(Arc::ptr_eq(add::spec(), add::spec()));
    let tools = set();
    let a = tools.specs();
    let b = tools.specs();
    assert!(Arc::ptr_eq(&a, &b), "listing specs shares one list");
    assert!(Arc::ptr_eq(&a[1], add::spec()));
}

// ---- calls ----

#[test]
fn calls_return_expected_json() {
    rt().block_on(async {
        let tools = set();
        assert_eq!(
            call(&tools, "add", json!({"a": 2, "b": 40})).await,
            Ok(json!(42))
        );
        assert_eq!(
            call(
                &tools,
                "weather",
                json!({"location": {"city": "Paris", "country": "FR"}, "days": 1, "tags": []})
            )
            .await,
            Ok(json!({"place": "Paris, FR", "temperature": 21.5, "unit": "celsius"}))
        );
        assert_eq!(
            call(
                &tools,
                "join_words",
                json!({"words": ["a", "b"], "upper": true})
            )
            .await,
            Ok(json!("A B"))
        );
        assert_eq!(
            call(
                &tools,
                "join_words",
                json!({"words": ["a", "b"], "separator": "-"})
            )
            .await,
            Ok(json!("a-b"))
        );
        assert_eq!(call(&tools, "ping", json!(null)).await, Ok(json!("pong")));
        assert_eq!(call(&tools, "ping", json!({})).await, Ok(json!("pong")));
        assert_eq!(call(&tools, "noop", json!({})).await, Ok(Value::Null));
        assert_eq!(
            tools.execute("add", &json!({"a": 1, "b": 1})).await,
            Ok(json!(2))
        );
        // the function is still callable as written
        assert_eq!(add(1, 2), 3);
        assert_eq!(ping().await, "pong");
    });
}

#[test]
fn str_arguments_borrow_from_the_request() {
    rt().block_on(async {
        let params = json!({"text": "no copy please"});
        let expected = params["text"].as_str().unwrap().as_ptr() as u64;
        assert_eq!(
            call(&set(), "address_of", params).await,
            Ok(json!(expected))
        );
    });
}

#[test]
fn bad_arguments_are_invalid_argument_failures_naming_the_path() {
    rt().block_on(async {
        let tools = set();
        let cases = [
            (
                "add",
                json!({"a": 1, "b": "two"}),
                "b: expected an integer, got \"two\"",
            ),
            (
                "add",
                json!({"a": 1}),
                "b: missing required argument; expected an integer",
            ),
            (
                "add",
                json!({"a": 1, "b": 2, "c": 3}),
                "c: unknown argument; expected one of \"a\", \"b\"",
            ),
            (
                "add",
                json!([1, 2]),
                "arguments: expected an object, got an array",
            ),
            (
                "add",
                json!("1 + 2"),
                "arguments: expected an object, got \"1 + 2\"",
            ),
            (
                "ping",
                json!({"x": 1}),
                "x: unknown argument; this tool takes no arguments",
            ),
            (
                "weather",
                json!({"location": {"city": 5}, "days": 1, "tags": []}),
                "location.city: expected a string, got 5",
            ),
            (
                "weather",
                json!({"location": {"city": "Oslo"}, "days": -1, "tags": []}),
                "days: expected an integer from 0 to 4294967295, got -1",
            ),
            (
                "weather",
                json!({"location": {"city": "Oslo"}, "days": 1, "tags": ["a", 2]}),
                "tags[1]: expected a string, got 2",
            ),
            (
                "weather",
                json!({"location": {"city": "Oslo"}, "unit": "kelvin", "days": 1, "tags": []}),
                "unit: unknown value \"kelvin\"; expected \"celsius\" or \"fahrenheit\"",
            ),
            (
                "join_words",
                json!({"words": ["a"], "shout": true}),
                "shout: unknown argument; expected one of \"words\", \"separator\", \"upper\"",
            ),
        ];
        for (tool, params, message) in cases {
            let failure = call(&tools, tool, params.clone()).await.unwrap_err();
            assert_eq!(failure.message(), message, "{tool}({params})");
            assert_eq!(failure.kind(), FailureKind::InvalidArguments);
            assert_eq!(failure.code(), "invalid_arguments");
            assert!(!failure.is_terminal() && !failure.is_unhandled());
        }
    });
}

#[test]
fn typed_failures_pass_through() {
    rt().block_on(async {
        let tools = set();
        let failure = call(
            &tools,
            "weather",
            json!({"location": {"city": "Atlantis"}, "days": 1, "tags": []}),
        )
        .await
        .unwrap_err();
        assert!(failure.is_terminal());
        assert_eq!(failure.code(), "unknown_city");
        let failure = call(&tools, "refuse", json!({"reason": "not today"}))
            .await
            .unwrap_err();
        assert_eq!(failure.message(), "not today");
        assert!(!failure.is_terminal());
        assert_eq!(
            tools.execute("refuse", &json!({"reason": "no"})).await,
            Err("no".to_owned())
        );
    });
}

#[test]
fn unknown_tools_are_unhandled() {
    rt().block_on(async {
        let tools = set();
        let failure = call(&tools, "nope", json!({})).await.unwrap_err();
        assert!(failure.is_unhandled());
        assert_eq!(failure.kind(), FailureKind::UnknownTool);
        assert_eq!(
            tools.execute("nope", &json!({})).await,
            Err("unknown tool `nope`".to_owned())
        );
    });
}

#[test]
fn a_panicking_tool_is_an_internal_failure_and_the_set_keeps_serving() {
    rt().block_on(async {
        let tools = set();
        let failure = call(&tools, "boom", json!({})).await.unwrap_err();
        assert_eq!(failure.kind(), FailureKind::Internal);
        assert_eq!(failure.code(), "panic");
        assert_eq!(failure.message(), "tool `boom` panicked");
        assert!(
            !failure.to_string().contains("hunter2"),
            "the panic text is not shown to models"
        );
        assert!(
            format!("{failure:?}").contains("hunter2"),
            "but it is kept for logs"
        );
        assert_eq!(
            call(&tools, "add", json!({"a": 1, "b": 1})).await,
            Ok(json!(2))
        );
    });
}

#[test]
fn a_panic_under_a_deadline_or_token_is_an_internal_failure_too() {
    // `boom` takes no context: without a deadline or token its call skips `drive`, with
    // either it goes through it; both catch the panic.
    rt().block_on(async {
        let tools = set();
        for ctx in [
            ToolContext::new().with_timeout(Duration::from_secs(10)),
            ToolContext::new().with_cancellation(CancellationToken::new()),
        ] {
            let failure = tools
                .execute_with_context("boom", &json!({}), ctx)
                .await
                .unwrap_err();
            assert_eq!(failure.kind(), FailureKind::Internal);
            assert_eq!(failure.code(), "panic");
            assert_eq!(failure.message(), "tool `boom` panicked");
        }
    });
}

#[test]
fn the_tool_timeout_is_enforced() {
    rt().block_on(async {
        let failure =
            tokio::time::timeout(Duration::from_secs(10), call(&set(), "sleepy", json!({})))
                .await
                .expect("the tool's own timeout fires long before this one")
                .unwrap_err();
        assert_eq!(failure.kind(), FailureKind::Timeout);
        assert_eq!(failure.message(), "tool `sleepy` timed out after 30ms");
        assert!(!failure.is_terminal(), "a timeout may be retried");
    });
}

#[test]
fn the_callers_budget_bounds_the_call() {
    rt().block_on(async {
        let tools = set();
        let empty = HashMap::new();
        let failure = tokio::time::timeout(
            Duration::from_secs(10),
            tools.execute_classified("slow", &json!({}), "a-1", Some(20), None, 1, &empty, None),
        )
        .await
        .expect("timeout_ms bounds the wait")
        .unwrap_err();
        assert_eq!(failure.kind(), FailureKind::Timeout);
    });
}

#[test]
fn cancellation_drops_the_tool_future() {
    rt().block_on(async {
        SLOW_DROPPED.store(false, Ordering::SeqCst);
        let token = CancellationToken::new();
        let ctx = ToolContext::new().with_cancellation(token.clone());
        let tools = set();
        let params = json!({});
        let call = tools.execute_with_context("slow", &params, ctx);
        let canceller = async {
            tokio::time::sleep(Duration::from_millis(20)).await;
            token.cancel();
        };
        let (result, ()) = tokio::join!(call, canceller);
        let failure = result.unwrap_err();
        assert_eq!(failure.kind(), FailureKind::Cancelled);
        assert!(failure.is_terminal());
        assert!(SLOW_DROPPED.load(Ordering::SeqCst));
    });
}

#[test]
fn tools_that_do_not_read_their_context_answer_alike_under_any_seed_method() {
    rt().block_on(async {
        let out = <add as Tool>::call(&json!({"a": 2, "b": 3}), ToolContext::new())
            .await
            .unwrap();
        assert_eq!(out.output, json!(5));
        assert!(out.state_changes.is_empty());
        let failure = <add as Tool>::call(&json!({"a": "two"}), ToolContext::new())
            .await
            .unwrap_err();
        assert_eq!(failure.kind(), FailureKind::InvalidArguments);

        // Every seed method, whatever it carries, gets the same answer.
        let tools = set();
        let params = json!({"a": 2, "b": 3});
        let effects = HashMap::from([("k".to_owned(), json!(null))]);
        let classified = tools
            .execute_classified("add", &params, "a-1", None, Some("s"), 2, &effects, None)
            .await
            .unwrap();
        assert_eq!(classified.output, json!(5));
        assert!(classified.state_changes.is_empty());
        let budgeted = tools
            .execute_classified("add", &params, "", Some(60_000), None, 1, &effects, None)
            .await
            .unwrap();
        assert_eq!(budgeted.output, json!(5));
        assert_eq!(tools.execute("add", &params).await, Ok(json!(5)));
        assert_eq!(
            tools
                .execute_with_action_in_session("add", &params, "a", None, None, 1)
                .await,
            Ok(json!(5))
        );
    });
}

#[test]
fn tools_without_a_context_still_honour_deadlines_and_tokens() {
    rt().block_on(async {
        let tools = set();
        let empty = HashMap::new();
        let params = json!({});
        let bounded = |fut| tokio::time::timeout(Duration::from_secs(10), fut);

        NAP_DROPPED.store(false, Ordering::SeqCst);
        let failure =
            bounded(tools.execute_classified("nap", &params, "", Some(20), None, 1, &empty, None))
                .await
                .expect("timeout_ms bounds a tool that takes no context")
                .unwrap_err();
        assert_eq!(failure.kind(), FailureKind::Timeout);
        assert!(
            NAP_DROPPED.load(Ordering::SeqCst),
            "the tool's future is dropped"
        );

        NAP_DROPPED.store(false, Ordering::SeqCst);
        let failure = bounded(Box::pin(<nap as Tool>::call(
            &params,
            ToolContext::new().with_timeout(Duration::from_millis(20)),
        )))
        .await
        .expect("a deadline bounds `Tool::call` too")
        .unwrap_err();
        assert_eq!(failure.kind(), FailureKind::Timeout);
        assert!(NAP_DROPPED.load(Ordering::SeqCst));

        NAP_DROPPED.store(false, Ordering::SeqCst);
        let token = CancellationToken::new();
        let ctx = ToolContext::new().with_cancellation(token.clone());
        let call = tools.execute_with_context("nap", &params, ctx);
        let canceller = async {
            tokio::time::sleep(Duration::from_millis(20)).await;
            token.cancel();
        };
        let (result, ()) = tokio::join!(bounded(call), canceller);
        let failure = result.expect("the token ends the call").unwrap_err();
        assert_eq!(failure.kind(), FailureKind::Cancelled);
        assert!(NAP_DROPPED.load(Ordering::SeqCst));
    });
}

#[test]
fn the_seed_methods_thread_the_context_through() {
    rt().block_on(async {
        let tools = set();
        let empty = HashMap::new();
        let out = tools
            .execute_classified("whoami", &json!({}), "act-7", Some(60_000), Some("sess-1"), 3, &empty, None)
            .await
            .unwrap();
        assert_eq!(
            out.output,
            json!({"action_id": "act-7", "session_id": "sess-1", "attempt": 3, "has_deadline": true})
        );
        let out = tools
            .execute_with_action_in_session("whoami", &json!({}), "act-8", None, Some("s"), 2)
            .await
            .unwrap();
        assert_eq!(out, json!({"action_id": "act-8", "session_id": "s", "attempt": 2, "has_deadline": false}));
        let out = tools.execute_with_action("whoami", &json!({}), "act-9", None).await.unwrap();
        assert_eq!(out, json!({"action_id": "act-9", "session_id": null, "attempt": 1, "has_deadline": false}));
        let out = tools.execute("whoami", &json!({})).await.unwrap();
        assert_eq!(out["attempt"], 1, "attempt is 1-based");
    });
}

#[test]
fn state_changes_are_returned_and_checked_against_expected_effects() {
    rt().block_on(async {
        let tools = set();
        let params = json!({"key": "k", "value": 5});
        let mut effects = HashMap::new();
        effects.insert("k".to_owned(), json!(null));
        let out = tools
            .execute_classified("remember", &params, "", None, None, 1, &effects, None)
            .await
            .unwrap();
        assert_eq!(
            out.state_changes,
            HashMap::from([("k".to_owned(), json!(5))])
        );
        let state = tools
            .execute_with_action_state_in_session(
                "remember", &params, "", None, None, 1, &effects, None,
            )
            .await
            .unwrap();
        assert_eq!(state.state_changes["k"], json!(5));

        let mut other = HashMap::new();
        other.insert("other".to_owned(), json!(null));
        let failure = tools
            .execute_classified("remember", &params, "", None, None, 1, &other, None)
            .await
            .unwrap_err();
        assert_eq!(failure.code(), "state_mismatch");
        assert!(failure.is_terminal());
        assert_eq!(
            failure.message(),
            r#"recorded state changes ["k"] do not match the expected effects ["other"]"#
        );
    });
}

// ---- streaming ----

async fn drain(mut rx: tokio::sync::mpsc::Receiver<ToolStreamChunk>) -> Vec<Value> {
    let mut chunks = Vec::new();
    while let Some(chunk) = tokio::time::timeout(Duration::from_secs(10), rx.recv())
        .await
        .expect("stream stalled")
    {
        chunks.push(serde_json::to_value(&chunk).unwrap());
    }
    chunks
}

#[test]
fn streams_carry_progress_data_and_a_terminal_chunk() {
    rt().block_on(async {
        let tools = set();
        let rx = tools
            .execute_stream("slow", &json!({"finish": true}), "a")
            .await
            .unwrap();
        assert_eq!(
            drain(rx).await,
            vec![
                json!({"kind": "progress", "fraction": 0.25, "message": "started"}),
                json!({"kind": "data", "data": {"partial": 1}}),
                json!({"kind": "text", "text": "some text"}),
                json!({"kind": "done", "result": "finished"}),
            ]
        );
        let rx = tools
            .execute_stream("add", &json!({"a": "x"}), "a")
            .await
            .unwrap();
        assert_eq!(
            drain(rx).await,
            vec![
                json!({"kind": "error", "message": "a: expected an integer, got \"x\"",
                        "code": "invalid_arguments", "classification": "ordinary"})
            ]
        );
        let rx = tools.execute_stream("nope", &json!({}), "a").await.unwrap();
        assert_eq!(
            drain(rx).await,
            vec![json!({"kind": "error", "message": "unknown tool `nope`",
                        "code": "unknown_tool", "classification": "ordinary"})]
        );
        // A terminal failure keeps its class and code on the stream (issue 15: the chunk
        // carried only the message, so a streaming caller could not tell it from a retryable one).
        let rx = tools
            .execute_stream(
                "weather",
                &json!({"location": {"city": "Atlantis"}, "days": 1, "tags": []}),
                "a",
            )
            .await
            .unwrap();
        assert_eq!(
            drain(rx).await,
            vec![json!({"kind": "error", "message": "no such city",
                        "code": "unknown_city", "classification": "terminal"})]
        );
        // The seed's shape still parses.
        let seed: ToolStreamChunk =
            serde_json::from_value(json!({"kind": "error", "message": "x"})).unwrap();
        assert!(matches!(
            seed,
            ToolStreamChunk::Error {
                code: None,
                classification: None,
                ..
            }
        ));
    });
}

#[test]
fn dropping_the_receiver_drops_the_tool() {
    rt().block_on(async {
        SLOW_DROPPED.store(false, Ordering::SeqCst);
        let tools = set();
        let mut rx = tools.execute_stream("slow", &json!({}), "a").await.unwrap();
        let first = rx.recv().await.unwrap();
        assert!(matches!(first, ToolStreamChunk::Progress { .. }));
        drop(rx);
        for _ in 0..200 {
            if SLOW_DROPPED.load(Ordering::SeqCst) {
                return;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        panic!("the tool's future was not dropped after the receiver was");
    });
}

// ---- #[tools] ----

/// A stateful, clonable service.
#[derive(Clone, Default)]
struct Counter {
    hits: Arc<AtomicU64>,
}

#[tools]
impl Counter {
    /// Adds to the counter.
    #[tool(name = "bump")]
    async fn bump_by(&self, #[arg(default = 1)] by: u64, ctx: &ToolContext) -> u64 {
        ctx.progress(1.0, None).await;
        self.hits.fetch_add(by, Ordering::SeqCst) + by
    }

    /// Reads the counter.
    #[tool(read_only)]
    fn read(&self) -> u64 {
        self.hits.load(Ordering::SeqCst)
    }

    /// Not a tool.
    #[allow(dead_code)]
    fn helper(&self) -> u64 {
        7
    }
}

/// A service that is not `Clone`.
struct Vault {
    secret: String,
}

#[tools]
impl Vault {
    /// Checks a guess.
    #[tool]
    fn guess(&self, word: &str) -> bool {
        word == self.secret
    }
}

#[test]
fn tools_impls_are_executors() {
    rt().block_on(async {
        let counter = Counter::default();
        assert_eq!(counter.execute("bump", &json!({})).await, Ok(json!(1)));
        assert_eq!(
            counter.execute("bump", &json!({"by": 5})).await,
            Ok(json!(6))
        );
        assert_eq!(counter.execute("read", &json!({})).await, Ok(json!(6)));
        assert_eq!(
            counter.bump_by(1, &ToolContext::new()).await,
            7,
            "methods stay callable"
        );
        let names: Vec<String> = counter.specs().iter().map(|s| s.name.clone()).collect();
        assert_eq!(names, ["bump", "read"]);
        assert!(Arc::ptr_eq(&counter.specs(), &counter.specs()));
        let list = counter.specs();
        let specs: Vec<&ToolSpec> = list.iter().map(|s| &**s).collect();
        assert_snapshot("tools_counter_specs", &serde_json::to_value(specs).unwrap());
        let failure = counter
            .execute_with_context("helper", &json!({}), ToolContext::new())
            .await
            .unwrap_err();
        assert!(failure.is_unhandled());

        let rx = counter
            .execute_stream("bump", &json!({"by": 2}), "s")
            .await
            .unwrap();
        assert_eq!(
            drain(rx).await,
            vec![
                json!({"kind": "progress", "fraction": 1.0, "message": null}),
                json!({"kind": "done", "result": 9})
            ]
        );

        let vault = Vault {
            secret: "open".to_owned(),
        };
        assert_eq!(
            vault.execute("guess", &json!({"word": "open"})).await,
            Ok(json!(true))
        );
        let refused = vault
            .execute_stream("guess", &json!({"word": "x"}), "s")
            .await
            .unwrap_err();
        assert!(refused.contains("is not `Clone`"), "{refused}");
    });
}

#[test]
fn a_tool_set_holds_executors_and_streams_them() {
    rt().block_on(async {
        let vault = Vault {
            secret: "open".to_owned(),
        };
        let tools = ToolSet::builder()
            .tool::<add>()
            .executor(vault)
            .build()
            .unwrap();
        assert_eq!(
            tools.execute("guess", &json!({"word": "open"})).await,
            Ok(json!(true))
        );
        let rx = tools
            .execute_stream("guess", &json!({"word": "shut"}), "s")
            .await
            .unwrap();
        assert_eq!(
            drain(rx).await,
            vec![json!({"kind": "done", "result": false})]
        );

        let clash = ToolSet::builder()
            .tool::<add>()
            .tool::<add>()
            .build()
            .unwrap_err();
        assert_eq!(clash.to_string(), "two tools are named `add`");
    });
}

#[test]
fn unknown_tools_go_to_the_fallback() {
    rt().block_on(async {
        let fallback: Arc<dyn ToolExecutor> = Arc::new(toolset![ping]);
        let tools = ToolSet::builder()
            .tool::<add>()
            .fallback(fallback)
            .build()
            .unwrap();
        assert_eq!(tools.execute("ping", &json!({})).await, Ok(json!("pong")));
        assert!(
            call(&tools, "nope", json!({}))
                .await
                .unwrap_err()
                .is_unhandled()
        );
    });
}

// ---- a hand-written executor keeps the seed's delegation ----

struct Legacy;

impl ToolExecutor for Legacy {
    fn execute<'a>(
        &'a self,
        tool: &'a str,
        params: &'a Value,
    ) -> BoxFuture<'a, Result<Value, String>> {
        Box::pin(async move {
            match tool {
                "echo" => Ok(params.clone()),
                "wait" => {
                    tokio::time::sleep(Duration::from_secs(30)).await;
                    Ok(Value::Null)
                }
                other => Err(format!("unknown tool: {other}")),
            }
        })
    }
}

#[test]
fn hand_written_executors_keep_the_seed_defaults() {
    rt().block_on(async {
        let legacy = Legacy;
        let empty = HashMap::new();
        let out = legacy
            .execute_classified("echo", &json!({"x": 1}), "a", None, None, 1, &empty, None)
            .await
            .unwrap();
        assert_eq!(out.output, json!({"x": 1}));
        assert!(out.state_changes.is_empty());
        let failure = legacy
            .execute_classified("zzz", &json!({}), "a", None, None, 1, &empty, None)
            .await
            .unwrap_err();
        assert!(
            !failure.is_unhandled(),
            "string errors are ordinary, never sniffed"
        );
        let refused = legacy
            .execute_stream("echo", &json!({}), "a")
            .await
            .unwrap_err();
        assert_eq!(
            refused,
            "tool 'echo': this executor does not support streaming/long-running invocation"
        );
        assert!(legacy.specs().is_empty());
        let timed_out = legacy
            .execute_with_context(
                "wait",
                &json!({}),
                ToolContext::new().with_timeout(Duration::from_millis(20)),
            )
            .await
            .unwrap_err();
        assert_eq!(timed_out.kind(), FailureKind::Timeout);
    });
}
