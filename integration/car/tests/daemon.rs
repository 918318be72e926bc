//! Our `CarHost` (feature `car-ws`) against car's real daemon dispatcher: car-server-core
//! 0.60's `run_dispatch` behind a loopback WebSocket listener, the same glue car-server-core's
//! own tests use (`tests/ws_callback_state.rs`: bind, `accept_async`, split, `run_dispatch`).
//! The host authenticates, shakes hands, registers the probe's tools, and submits proposals on
//! its own session with `proposal.submit`; car's runtime calls the tools back over
//! `tools.execute`. Run by `bash .ci/car-check.sh`.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use car_server_core::{ServerState, ServerStateConfig, run_dispatch};
use executor_car_integration::tools::Probe;
use futures_util::StreamExt;
use serde_json::{Value, json};
use tokio::net::TcpListener;
use tool_executor::car::{CarHost, CarSession};
use tool_executor::failure::transport::from_car;
use tool_executor::tool::{BoxFuture, SpecList, ToolExecution, ToolExecutor};
use tool_executor::{FailureKind, ToolFailure};

const TOKEN: &str = "executor-car-host-daemon-token-0123456789abcdef";
const HOST_TOKEN: &str = "executor-car-host-host-token-0123456789abcdef";
const LIMIT: Duration = Duration::from_secs(30);

/// The stack of the daemon's threads: car-server-core's dispatch futures are large in a debug
/// build (its own comment: "past a 2 MB worker stack").
const DAEMON_STACK: usize = 64 << 20;

/// car's dispatcher on a free loopback port, requiring a token, on its own runtime (as a
/// daemon process would be). The glue: bind, `accept_async`, split, `run_dispatch`.
fn daemon(journals: &tempfile::TempDir) -> SocketAddr {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind loopback");
    listener
        .set_nonblocking(true)
        .expect("non-blocking listener");
    let address = listener.local_addr().expect("address");
    let journal_dir = journals.path().join("journals");
    let serve = move || {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .thread_stack_size(DAEMON_STACK)
            .enable_all()
            .build()
            .expect("the daemon's runtime");
        runtime.block_on(async move {
            let state = Arc::new(ServerState::with_config(ServerStateConfig::new(
                journal_dir,
            )));
            state
                .install_auth_token(TOKEN.into())
                .expect("daemon token");
            state
                .install_host_token(HOST_TOKEN.into())
                .expect("host token");
            let listener = TcpListener::from_std(listener).expect("listener");
            while let Ok((stream, peer)) = listener.accept().await {
                let state = state.clone();
                tokio::spawn(async move {
                    let Ok(socket) = tokio_tungstenite::accept_async(stream).await else {
                        return;
                    };
                    let (write, read) = socket.split();
                    let _ = run_dispatch(read, Box::pin(write), peer.to_string(), state).await;
                });
            }
        });
    };
    std::thread::Builder::new()
        .name("car-daemon".into())
        .stack_size(DAEMON_STACK)
        .spawn(serve)
        .expect("the daemon's thread");
    address
}

/// The probe's tools hosted for a fresh daemon, as the host role (which may clear a halt).
async fn hosted(executor: impl ToolExecutor + 'static) -> (tempfile::TempDir, CarSession) {
    let journals = tempfile::tempdir().expect("temporary state");
    let address = daemon(&journals);
    let session = CarHost::new(executor)
        .url(format!("ws://{address}/"))
        .host_token(HOST_TOKEN)
        .request_timeout(LIMIT)
        .connect()
        .await
        .expect("the daemon takes our registration");
    (journals, session)
}

/// Submits one proposal of `actions` on the host's own session; car's results.
async fn submit(session: &CarSession, id: &str, actions: Value) -> Vec<Value> {
    let response = session
        .request(
            "proposal.submit",
            json!({"proposal": {"id": id, "source": "executor-car-host", "actions": actions}}),
        )
        .await
        .expect("car answers the proposal");
    response["results"].as_array().expect("results").clone()
}

/// A failed action's error as ours: class from car's field, details from the marker.
fn failure_of(result: &Value) -> ToolFailure {
    let message = result["error"]
        .as_str()
        .expect("a failed action has an error");
    from_car(message, result["terminal"] == json!(true), false)
}

#[tokio::test]
async fn the_daemon_takes_the_registration_and_calls_with_what_the_action_carried() {
    let probe = Probe::default();
    let (_state, session) = hosted(probe.clone()).await;
    assert!(
        session.callback_state(),
        "car 0.60 offers tools.callback-state.v1"
    );
    assert_eq!(session.tools().len(), probe.specs().len());

    let listed = session
        .request("tools.list", json!({}))
        .await
        .expect("tools.list");
    let names: Vec<&str> = listed["tools"]
        .as_array()
        .expect("tools")
        .iter()
        .filter_map(|tool| tool["name"].as_str())
        .collect();
    for name in ["add", "whoami", "flaky", "forecast", "nap", "store"] {
        assert!(names.contains(&name), "{name} registered: {listed}");
    }

    let results = submit(
        &session,
        "p-success",
        json!([
            {"id": "add-1", "type": "tool_call", "tool": "add", "parameters": {"a": 2, "b": 40}},
            {"id": "who-1", "type": "tool_call", "tool": "whoami", "parameters": {}, "timeout_ms": 5000},
        ]),
    )
    .await;
    assert_eq!(results[0]["status"], "succeeded", "{results:?}");
    assert_eq!(results[0]["output"], 42);
    let seen = &results[1]["output"];
    assert_eq!(seen["action_id"], "who-1", "{results:?}");
    assert_eq!(seen["attempt"], 1);
    assert_eq!(seen["has_budget"], true);
    // car-server-core 0.60's `proposal.submit` runs the proposal without an execution session,
    // so `tools.execute` carries none (`session_id` is absent).
    assert_eq!(seen["session_id"], Value::Null, "{seen}");

    // car's validator checks arguments against the schema we registered.
    let rejected = submit(
        &session,
        "p-invalid",
        json!([{"type": "tool_call", "tool": "add", "parameters": {"a": "two", "b": 1}}]),
    )
    .await;
    assert_eq!(rejected[0]["status"], "rejected", "{rejected:?}");
}

#[tokio::test]
async fn car_retries_an_ordinary_failure_and_the_tool_sees_each_attempt() {
    let probe = Probe::default();
    let (_state, session) = hosted(probe.clone()).await;
    let results = submit(
        &session,
        "p-retry",
        json!([{"id": "flaky-1", "type": "tool_call", "tool": "flaky",
                "parameters": {"until": 3}, "failure_behavior": "retry", "max_retries": 3}]),
    )
    .await;
    assert_eq!(results[0]["status"], "succeeded", "{results:?}");
    assert_eq!(results[0]["output"], json!([1, 2, 3]));
    assert_eq!(probe.attempts(), [1, 2, 3]);

    // Out of retries: the last failure comes back with its details.
    let results = submit(
        &session,
        "p-retry-out",
        json!([{"id": "flaky-2", "type": "tool_call", "tool": "flaky",
                "parameters": {"until": 99}, "failure_behavior": "retry", "max_retries": 1}]),
    )
    .await;
    assert_eq!(results[0]["status"], "failed", "{results:?}");
    let failure = failure_of(&results[0]);
    assert!(!failure.is_terminal());
    assert_eq!(failure.message(), "busy on attempt 2");
    assert_eq!(failure.code(), "busy");
    assert_eq!(failure.retry_after(), Some(Duration::from_millis(5)));
    assert_eq!(failure.data(), Some(&json!({"attempt": 2})));
    assert_eq!(probe.attempts(), [1, 2, 3, 1, 2]);
}

#[tokio::test]
async fn a_terminal_failure_stops_the_proposal_and_halts_until_the_host_clears_it() {
    let (_state, session) = hosted(Probe::default()).await;
    let results = submit(
        &session,
        "p-terminal",
        json!([
            {"id": "forecast-1", "type": "tool_call", "tool": "forecast",
             "parameters": {"city": "Atlantis"}, "failure_behavior": "retry", "max_retries": 3},
            {"id": "add-after", "type": "tool_call", "tool": "add", "parameters": {"a": 1, "b": 1}},
        ]),
    )
    .await;
    assert_eq!(results[0]["status"], "failed", "{results:?}");
    assert_eq!(results[0]["terminal"], true);
    let failure = failure_of(&results[0]);
    assert_eq!(failure.message(), "unknown city `Atlantis`");
    assert_eq!(failure.code(), "unknown_city");
    assert_eq!(failure.data(), Some(&json!({"city": "Atlantis"})));
    assert_ne!(results[1]["status"], "succeeded", "{results:?}");

    // The daemon halted this session; the host role clears it and serves again.
    let halted = submit(
        &session,
        "p-halted",
        json!([{"type": "tool_call", "tool": "add", "parameters": {"a": 1, "b": 1}}]),
    )
    .await;
    assert_eq!(halted[0]["status"], "rejected", "{halted:?}");
    let cleared = session
        .request("session.clear_halt", json!({}))
        .await
        .expect("cleared");
    assert_eq!(cleared, json!({"cleared": true, "halted": false}));
    let again = submit(
        &session,
        "p-after-clear",
        json!([{"type": "tool_call", "tool": "add", "parameters": {"a": 1, "b": 1}}]),
    )
    .await;
    assert_eq!(again[0]["output"], 2, "{again:?}");

    // An unknown tool never falls through to car's built-ins for a host: rejected by car's
    // validator before any call.
    let unknown = submit(
        &session,
        "p-unknown",
        json!([{"type": "tool_call", "tool": "nope", "parameters": {}}]),
    )
    .await;
    assert_ne!(unknown[0]["status"], "succeeded", "{unknown:?}");
}

/// The probe with the action's budget withheld from the tool, so that only car's
/// `tools.cancel` can end a call that outlives its action's timeout.
struct NoBudget(Probe);

impl ToolExecutor for NoBudget {
    fn execute<'a>(
        &'a self,
        tool: &'a str,
        params: &'a Value,
    ) -> BoxFuture<'a, Result<Value, String>> {
        self.0.execute(tool, params)
    }

    fn execute_classified<'a>(
        &'a self,
        tool: &'a str,
        params: &'a Value,
        action_id: &'a str,
        _timeout_ms: Option<u64>,
        session_id: Option<&'a str>,
        attempt: u32,
        expected_effects: &'a HashMap<String, Value>,
        return_schema: Option<&'a Value>,
    ) -> BoxFuture<'a, Result<ToolExecution, ToolFailure>> {
        self.0.execute_classified(
            tool,
            params,
            action_id,
            None,
            session_id,
            attempt,
            expected_effects,
            return_schema,
        )
    }

    fn specs(&self) -> SpecList {
        self.0.specs()
    }
}

#[tokio::test]
async fn a_timeout_sends_tools_cancel_which_drops_the_tool_s_future() {
    let probe = Probe::default();
    let (_state, session) = hosted(NoBudget(probe.clone())).await;
    let results = submit(
        &session,
        "p-timeout",
        json!([{"id": "nap-1", "type": "tool_call", "tool": "nap",
                "parameters": {"ms": 60000}, "timeout_ms": 300}]),
    )
    .await;
    assert_eq!(results[0]["status"], "failed", "{results:?}");
    let error = results[0]["error"].as_str().unwrap_or_default();
    assert!(
        error.contains("timed out") || error.contains("timeout"),
        "{error}"
    );
    assert!(
        probe.wait_dropped(1, LIMIT).await,
        "car's tools.cancel dropped the nap"
    );
    let deadline = tokio::time::Instant::now() + LIMIT;
    while session.calls_in_flight() > 0 && tokio::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(session.calls_in_flight(), 0);

    // With the budget the tool ends itself at the action's timeout as well.
    let probe = Probe::default();
    let (_state, session) = hosted(probe.clone()).await;
    let results = submit(
        &session,
        "p-timeout-budget",
        json!([{"id": "nap-2", "type": "tool_call", "tool": "nap",
                "parameters": {"ms": 60000}, "timeout_ms": 300}]),
    )
    .await;
    assert_eq!(results[0]["status"], "failed", "{results:?}");
    assert!(probe.wait_dropped(1, LIMIT).await);
}

#[tokio::test]
async fn recorded_state_changes_meet_car_s_expected_effects() {
    let (_state, session) = hosted(Probe::default()).await;
    let results = submit(
        &session,
        "p-state",
        json!([
            {"id": "store-1", "type": "tool_call", "tool": "store",
             "parameters": {"key": "report.calendar", "value": {"id": 7}},
             "expected_effects": {"report.calendar": true}},
            {"id": "who-after", "type": "tool_call", "tool": "whoami", "parameters": {},
             "state_dependencies": ["report.calendar"]},
        ]),
    )
    .await;
    assert_eq!(results[0]["status"], "succeeded", "{results:?}");
    assert_eq!(results[0]["output"], true);
    // car's result shows the change it applied: a `set` of what the tool recorded.
    assert_eq!(
        results[0]["state_changes"],
        json!({"report.calendar": {"op": "set", "value": {"id": 7}}})
    );
    assert_eq!(
        results[1]["status"], "succeeded",
        "the dependent action ran: {results:?}"
    );

    // Keys that are not the expected effects: car refuses the answer, nothing is written.
    let results = submit(
        &session,
        "p-state-mismatch",
        json!([{"id": "store-2", "type": "tool_call", "tool": "store",
                "parameters": {"key": "report.other", "value": 1},
                "expected_effects": {"report.expected": true}}]),
    )
    .await;
    assert_eq!(results[0]["status"], "failed", "{results:?}");
    assert_eq!(results[0]["state_changes"], json!({}));
    let failure = failure_of(&results[0]);
    assert_eq!(failure.kind(), FailureKind::Tool);
    assert!(
        failure.message().contains("do not match"),
        "{}",
        failure.message()
    );
}
