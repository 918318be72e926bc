//! `CarHost` (feature `car-ws`) against a loopback car daemon peer that speaks the protocol
//! through car's own code, cut verbatim from car-proto 0.60 and car-server-core 0.60
//! (`car_host/fixtures/`, checked against car's source by `.ci/car-check.sh`): registration,
//! the context a call carries, the failure table's car row, `tools.cancel`, state changes
//! against expected effects, the bounds and reconnection. car's real dispatcher and runtime
//! run the same tools in `integration/car/tests/daemon.rs`.

#![cfg(feature = "car-ws")]

mod car_tools;
#[path = "car_host/peer.rs"]
mod peer;

use std::collections::HashMap;
use std::time::Duration;

use car_tools::Probe;
use peer::{Call, Config, Daemon, Outcome, Session, ToolExecution};
use serde_json::{Value, json};
use tool_executor::car::{CarHost, CarHostError};
use tool_executor::failure::transport::from_car;
use tool_executor::prelude::*;

const LIMIT: Duration = Duration::from_secs(10);

/// A peer, a host of the probe's tools connected to it, and the peer's side of the session.
async fn connected(config: Config) -> (Daemon, Probe, tool_executor::car::CarSession, Session) {
    let mut daemon = Daemon::start(config.clone()).await;
    let probe = Probe::default();
    let mut host = CarHost::new(probe.clone()).url(daemon.url());
    if let Some(token) = &config.token {
        host = host.token(token.clone());
    }
    let session = host.connect().await.expect("the host registers");
    let peer = daemon
        .next_session(LIMIT)
        .await
        .expect("the peer sees the registration");
    (daemon, probe, session, peer)
}

fn call(tool: &str, parameters: Value) -> Call {
    Call::new(tool, parameters)
}

fn done(outcome: Outcome) -> ToolExecution {
    match outcome {
        Outcome::Done(execution) => execution,
        other => panic!("expected a decoded answer, got {other:?}"),
    }
}

#[tokio::test]
async fn it_authenticates_shakes_hands_and_registers_every_spec() {
    let config = Config {
        token: Some("per-launch-token".into()),
        callback_state: true,
    };
    let (_daemon, probe, session, peer) = connected(config).await;

    assert_eq!(
        peer.methods(),
        ["session.auth", "server.handshake", "tools.register"]
    );
    let requests = peer.requests.lock().unwrap().clone();
    assert_eq!(requests[0].1, json!({"token": "per-launch-token"}));
    assert_eq!(
        requests[1].1,
        json!({
            "protocol_version": 3,
            "required_capabilities": [],
            "optional_capabilities": ["tools.callback-state.v1"],
            "client_version": concat!("tool-executor/", env!("CARGO_PKG_VERSION")),
        })
    );
    assert_eq!(peer.negotiated, ["tools.callback-state.v1"]);
    assert!(session.callback_state());
    assert_eq!(
        session.negotiated_capabilities(),
        ["tools.callback-state.v1"]
    );

    // What car's `ToolDefinition` read: every spec, schemas and hints carried over.
    let specs = probe.specs();
    assert_eq!(peer.tools.len(), specs.len());
    assert_eq!(session.tools().len(), specs.len());
    for (definition, spec) in peer.tools.iter().zip(specs.iter()) {
        assert_eq!(definition.name, spec.name);
        assert_eq!(definition.description, spec.description);
        assert_eq!(definition.parameters, spec.input_schema);
        assert_eq!(definition.returns, spec.output_schema);
        assert!(definition.cache_ttl_secs.is_none() && definition.rate_limit.is_none());
    }
    let add = peer.tools.iter().find(|tool| tool.name == "add").unwrap();
    assert!(add.idempotent, "read-only and idempotent");
    assert_eq!(
        add.returns,
        Some(json!({"type": "integer", "format": "int64"}))
    );
    let store = peer.tools.iter().find(|tool| tool.name == "store").unwrap();
    assert!(!store.idempotent);
}

#[tokio::test]
async fn a_wrong_token_is_a_fatal_auth_refusal() {
    let daemon = Daemon::start(Config {
        token: Some("right".into()),
        callback_state: true,
    })
    .await;
    let host = CarHost::new(Probe::default())
        .url(daemon.url())
        .token("wrong");
    let error = host.connect().await.expect_err("refused");
    match &error {
        CarHostError::Auth(refusal) => assert_eq!(refusal.code, -32001),
        other => panic!("expected an auth refusal, got {other:?}"),
    }
    assert!(error.is_fatal());
    // `run` stops at once on a fatal refusal instead of reconnecting.
    let stopped = tokio::time::timeout(LIMIT, host.run())
        .await
        .expect("run stops");
    assert!(matches!(stopped, CarHostError::Auth(_)), "{stopped:?}");

    // Without a token the daemon refuses the handshake as unauthenticated too.
    let anonymous = CarHost::new(Probe::default()).url(daemon.url());
    let error = anonymous.connect().await.expect_err("refused");
    assert!(
        matches!(error, CarHostError::Handshake(ref e) if e.code == -32001),
        "{error:?}"
    );
}

#[tokio::test]
async fn a_call_carries_action_attempt_session_and_budget_into_the_context() {
    let (_daemon, _probe, _session, peer) = connected(Config::default()).await;

    let sum = done(peer.execute(call("add", json!({"a": 2, "b": 40}))).await);
    assert_eq!(
        sum,
        ToolExecution {
            output: json!(42),
            state_changes: HashMap::new()
        }
    );

    let mut whoami = call("whoami", json!({}));
    whoami.action_id = "who-1".into();
    whoami.attempt = 2;
    whoami.session_id = Some("session-7".into());
    whoami.timeout_ms = Some(5_000);
    let seen = done(peer.execute(whoami).await);
    assert_eq!(
        seen.output,
        json!({
            "action_id": "who-1",
            "session_id": "session-7",
            "attempt": 2,
            "has_budget": true,
            "expected_effects": null,
        })
    );

    // A daemon that sends attempt 0 (older than car#928) means the first attempt.
    let mut legacy = call("whoami", json!({}));
    legacy.attempt = 0;
    assert_eq!(done(peer.execute(legacy).await).output["attempt"], 1);
}

#[tokio::test]
async fn an_ordinary_failure_is_retried_with_the_next_attempt_and_keeps_its_details() {
    let (_daemon, probe, _session, peer) = connected(Config::default()).await;

    // What car's retry loop does: the same action again, attempt + 1.
    let mut flaky = call("flaky", json!({"until": 2}));
    let first = peer.execute(flaky.clone()).await;
    let Outcome::Failed { message, terminal } = first else {
        panic!("expected a failure, got {first:?}");
    };
    assert!(!terminal, "ordinary: car retries it");
    assert_eq!(
        message,
        r#"busy on attempt 1 [executor/failure {"classification":"ordinary","code":"busy","data":{"attempt":1},"kind":"tool","retry_after_ms":5}]"#
    );
    let back = from_car(&message, terminal, false);
    assert_eq!(back.code(), "busy");
    assert_eq!(back.retry_after(), Some(Duration::from_millis(5)));
    assert_eq!(back.data(), Some(&json!({"attempt": 1})));

    flaky.attempt = 2;
    let second = done(peer.execute(flaky).await);
    assert_eq!(second.output, json!([1, 2]));
    assert_eq!(probe.attempts(), [1, 2]);
}

#[tokio::test]
async fn a_terminal_failure_sets_car_s_terminal_bit_and_others_do_not() {
    let (_daemon, _probe, _session, peer) = connected(Config::default()).await;

    let outcome = peer
        .execute(call("forecast", json!({"city": "Atlantis"})))
        .await;
    assert_eq!(
        outcome,
        Outcome::Failed {
            message: r#"unknown city `Atlantis` [executor/failure {"classification":"terminal","code":"unknown_city","data":{"city":"Atlantis"},"kind":"tool"}]"#.into(),
            terminal: true,
        }
    );

    // An unknown tool is unhandled for us, but a daemon never falls through for a host's
    // failure: ordinary, with its kind in the marker.
    let Outcome::Failed { message, terminal } = peer.execute(call("nope", json!({}))).await else {
        panic!("expected a failure");
    };
    assert!(!terminal);
    let back = from_car(&message, terminal, false);
    assert_eq!(back.kind(), tool_executor::FailureKind::UnknownTool);

    // Bad arguments: ordinary, kind `invalid_arguments`.
    let Outcome::Failed { message, terminal } =
        peer.execute(call("add", json!({"a": "two", "b": 1}))).await
    else {
        panic!("expected a failure");
    };
    assert!(!terminal);
    assert_eq!(
        from_car(&message, terminal, false).kind(),
        tool_executor::FailureKind::InvalidArguments
    );
}

#[tokio::test]
async fn tools_cancel_drops_the_tool_s_future() {
    let (_daemon, probe, session, peer) = connected(Config::default()).await;

    let mut nap = call("nap", json!({"ms": 60_000}));
    nap.action_id = "nap-1".into();
    nap.wait = Some(Duration::from_millis(200));
    let outcome = peer.execute(nap).await;
    let Outcome::TimedOut { cancel } = outcome else {
        panic!("expected the peer to give up, got {outcome:?}");
    };
    assert_eq!(
        cancel,
        json!({
            "jsonrpc": "2.0",
            "method": "tools.cancel",
            "params": {"request_id": "cb-1", "action_id": "nap-1", "reason": "tool 'nap' callback timed out"},
        })
    );
    assert!(probe.wait_dropped(1, LIMIT).await, "the nap was dropped");
    let deadline = tokio::time::Instant::now() + LIMIT;
    while session.calls_in_flight() > 0 && tokio::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    assert_eq!(session.calls_in_flight(), 0);

    // The connection still serves.
    assert_eq!(
        done(peer.execute(call("add", json!({"a": 1, "b": 1}))).await).output,
        2
    );
}

#[tokio::test]
async fn a_budget_ends_the_call_inside_the_host_too() {
    let (_daemon, probe, _session, peer) = connected(Config::default()).await;
    // The tool's deadline is the action's `timeout_ms`; the peer waits longer.
    let mut nap = call("nap", json!({"ms": 60_000}));
    nap.timeout_ms = Some(100);
    nap.wait = Some(LIMIT);
    let Outcome::Failed { message, terminal } = peer.execute(nap).await else {
        panic!("expected a timeout failure");
    };
    assert!(!terminal);
    assert_eq!(
        from_car(&message, terminal, false).kind(),
        tool_executor::FailureKind::Timeout
    );
    assert!(probe.wait_dropped(1, LIMIT).await);
}

#[tokio::test]
async fn recorded_state_changes_answer_the_expected_effects() {
    let (_daemon, _probe, _session, peer) = connected(Config::default()).await;

    let mut store = call(
        "store",
        json!({"key": "report.calendar", "value": {"id": 7}}),
    );
    store.expected_effects = HashMap::from([("report.calendar".to_owned(), json!(true))]);
    let stored = done(peer.execute(store.clone()).await);
    assert_eq!(stored.output, json!(true));
    assert_eq!(
        stored.state_changes,
        HashMap::from([("report.calendar".to_owned(), json!({"id": 7}))])
    );

    // car's decoder refuses changes whose keys are not the expected effects.
    store.expected_effects = HashMap::from([("report.other".to_owned(), json!(true))]);
    let Outcome::Rejected(reason) = peer.execute(store).await else {
        panic!("expected car's decoder to refuse");
    };
    assert!(
        reason.contains("state_changes keys do not match"),
        "{reason}"
    );

    // No expected effects, no changes: the envelope unwraps to the output.
    let plain = done(peer.execute(call("add", json!({"a": 1, "b": 2}))).await);
    assert_eq!(
        plain,
        ToolExecution {
            output: json!(3),
            state_changes: HashMap::new()
        }
    );
}

#[tokio::test]
async fn without_callback_state_the_output_goes_alone() {
    let config = Config {
        token: None,
        callback_state: false,
    };
    let (_daemon, _probe, session, peer) = connected(config).await;
    assert!(!session.callback_state());
    assert!(peer.negotiated.is_empty());
    let mut store = call("store", json!({"key": "k", "value": 1}));
    store.expected_effects = HashMap::from([("k".to_owned(), json!(true))]);
    // A legacy daemon keeps the raw output and applies no state.
    assert_eq!(
        done(peer.execute(store).await),
        ToolExecution {
            output: json!(true),
            state_changes: HashMap::new()
        }
    );
}

#[tokio::test]
async fn calls_over_the_bound_are_refused_as_ordinary_busy() {
    let mut daemon = Daemon::start(Config::default()).await;
    let probe = Probe::default();
    let host = CarHost::new(probe.clone())
        .url(daemon.url())
        .max_concurrent_calls(1);
    let _session = host.connect().await.unwrap();
    let peer = std::sync::Arc::new(daemon.next_session(LIMIT).await.unwrap());

    let sleeper = {
        let peer = peer.clone();
        tokio::spawn(async move { peer.execute(call("nap", json!({"ms": 300}))).await })
    };
    tokio::time::sleep(Duration::from_millis(100)).await;
    let Outcome::Failed { message, terminal } =
        peer.execute(call("add", json!({"a": 1, "b": 1}))).await
    else {
        panic!("expected a refusal");
    };
    assert!(!terminal);
    let busy = from_car(&message, false, false);
    assert_eq!(busy.code(), "host_busy");
    assert_eq!(busy.retry_after(), Some(Duration::from_millis(100)));
    assert_eq!(done(sleeper.await.unwrap()).output, json!(300));
}

/// Repeats `text` `times` times.
#[tool]
fn repeat(text: &str, times: usize) -> String {
    text.repeat(times.min(1 << 20))
}

#[tokio::test]
async fn messages_are_bounded_both_ways() {
    let mut daemon = Daemon::start(Config::default()).await;
    let host = CarHost::new(toolset![repeat])
        .url(daemon.url())
        .max_message_bytes(4096);
    let session = host.connect().await.unwrap();
    let peer = daemon.next_session(LIMIT).await.unwrap();

    // An answer over the bound becomes an ordinary failure.
    let Outcome::Failed { message, terminal } = peer
        .execute(call("repeat", json!({"text": "ab", "times": 10_000})))
        .await
    else {
        panic!("expected a refusal");
    };
    assert!(!terminal);
    assert_eq!(from_car(&message, false, false).code(), "output_too_large");

    // A frame over the bound from the daemon ends the connection.
    let big = json!({"jsonrpc": "2.0", "method": "execution.event", "params": {"pad": "x".repeat(10_000)}});
    peer.send(big).await.unwrap();
    let ended = tokio::time::timeout(LIMIT, session.closed())
        .await
        .expect("the connection ends");
    assert!(
        matches!(ended, Err(CarHostError::Connection(_))),
        "{ended:?}"
    );
}

#[tokio::test]
async fn a_request_the_host_does_not_serve_is_method_not_found() {
    let (_daemon, _probe, session, peer) = connected(Config::default()).await;
    let answer = peer.ask("host.ping", json!({})).await.expect("an answer");
    assert_eq!(answer.error.unwrap()["code"], -32601);

    // And the host's own requests reach the daemon (this peer knows no `proposal.submit`).
    let error = session
        .request("proposal.submit", json!({}))
        .await
        .unwrap_err();
    assert!(
        matches!(error, CarHostError::Rpc(ref e) if e.code == -32601),
        "{error:?}"
    );
}

#[tokio::test]
async fn run_reconnects_with_backoff_and_registers_again() {
    let mut daemon = Daemon::start(Config::default()).await;
    let host = CarHost::new(Probe::default())
        .url(daemon.url())
        .backoff(Duration::from_millis(10), Duration::from_millis(50));
    let running = tokio::spawn(async move { host.run().await });

    let first = daemon.next_session(LIMIT).await.expect("registered");
    assert_eq!(
        done(first.execute(call("add", json!({"a": 1, "b": 2}))).await).output,
        3
    );
    first.close().await;

    let second = daemon.next_session(LIMIT).await.expect("registered again");
    assert_eq!(second.tools.len(), first.tools.len());
    assert_eq!(second.methods(), ["server.handshake", "tools.register"]);
    assert_eq!(
        done(second.execute(call("add", json!({"a": 2, "b": 2}))).await).output,
        4
    );
    running.abort();
}

#[tokio::test]
async fn run_gives_up_after_the_failed_connections_allowed() {
    // A port nobody listens on.
    let closed = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("ws://{}/", closed.local_addr().unwrap());
    drop(closed);
    let host = CarHost::new(Probe::default())
        .url(url)
        .backoff(Duration::from_millis(1), Duration::from_millis(5))
        .max_failed_connections(2);
    let error = tokio::time::timeout(LIMIT, host.run())
        .await
        .expect("gives up");
    match error {
        CarHostError::GaveUp { attempts, last } => {
            assert_eq!(attempts, 3);
            assert!(matches!(*last, CarHostError::Connection(_)));
        }
        other => panic!("expected GaveUp, got {other:?}"),
    }
}
