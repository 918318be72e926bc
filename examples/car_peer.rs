//! The test peer for `car_host`: a car daemon's side of the WebSocket protocol on loopback,
//! speaking through car-proto's and car-server-core's own code (cut verbatim; see
//! `executor-core/tests/car_host/peer.rs`). It prints its URL, waits (30 s at most) for one
//! host to register, calls its tools as car's runtime would (a success, an ordinary failure
//! and its retry, a terminal failure, a timeout with `tools.cancel`, a state change against
//! expected effects), checks every answer, closes the session and exits non-zero on any
//! surprise.
//!
//! `cargo run --example car_peer -- [--token T]`, then `car_host --url URL --token T --once`.

#[path = "../executor-core/tests/car_host/peer.rs"]
mod peer;

use std::collections::HashMap;
use std::io::Write as _;
use std::process::ExitCode;
use std::time::Duration;

use peer::{Call, Config, Daemon, Outcome};
use serde_json::json;
use tool_executor::failure::transport::from_car;

#[tokio::main]
async fn main() -> ExitCode {
    let mut config = Config::default();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let token = args.next().filter(|_| arg == "--token");
        let Some(token) = token else {
            eprintln!("usage: car_peer [--token T]");
            return ExitCode::from(2);
        };
        config.token = Some(token);
    }
    let mut daemon = Daemon::start(config).await;
    println!("{}", daemon.url());
    let _ = std::io::stdout().flush();
    let Some(session) = daemon.next_session(Duration::from_secs(30)).await else {
        eprintln!("car_peer: no host registered within 30 s");
        return ExitCode::FAILURE;
    };
    let names: Vec<&str> = session
        .tools
        .iter()
        .map(|tool| tool.name.as_str())
        .collect();
    println!("registered: {names:?}");

    let mut failures = 0;
    let mut check = |what: &str, ok: bool, outcome: &Outcome| {
        println!("{} {what}: {outcome:?}", if ok { "ok  " } else { "FAIL" });
        failures += usize::from(!ok);
    };

    let outcome = session
        .execute(Call::new("add", json!({"a": 2, "b": 40})))
        .await;
    check(
        "a success",
        matches!(&outcome, Outcome::Done(done) if done.output == 42),
        &outcome,
    );

    let mut oslo = Call::new("get_weather", json!({"city": "Oslo"}));
    let outcome = session.execute(oslo.clone()).await;
    let retry_hint = match &outcome {
        Outcome::Failed {
            message,
            terminal: false,
        } => from_car(message, false, false).retry_after(),
        _ => None,
    };
    check(
        "an ordinary failure on attempt 1",
        retry_hint == Some(Duration::from_millis(200)),
        &outcome,
    );
    oslo.attempt = 2;
    let outcome = session.execute(oslo).await;
    check(
        "its retry, attempt 2",
        matches!(&outcome, Outcome::Done(done) if done.output["celsius"] == 4.0),
        &outcome,
    );

    let outcome = session
        .execute(Call::new("get_weather", json!({"city": "Atlantis"})))
        .await;
    check(
        "a terminal failure",
        matches!(&outcome, Outcome::Failed { terminal: true, message } if message.starts_with("unknown city `Atlantis`")),
        &outcome,
    );

    let mut nap = Call::new("nap", json!({"ms": 60_000}));
    nap.wait = Some(Duration::from_millis(200));
    let outcome = session.execute(nap).await;
    check(
        "a timeout, answered with tools.cancel",
        matches!(&outcome, Outcome::TimedOut { .. }),
        &outcome,
    );

    let mut report = Call::new("file_report", json!({"id": "r-1"}));
    report.expected_effects = HashMap::from([("report.r-1".to_owned(), json!(true))]);
    let outcome = session.execute(report).await;
    check(
        "a state change against expected effects",
        matches!(&outcome, Outcome::Done(done)
            if done.state_changes.get("report.r-1") == Some(&json!({"filed": true}))),
        &outcome,
    );

    session.close().await;
    if failures == 0 {
        println!("car_peer: every answer as car expects");
        ExitCode::SUCCESS
    } else {
        eprintln!("car_peer: {failures} unexpected answers");
        ExitCode::FAILURE
    }
}
