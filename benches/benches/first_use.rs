//! The first-use cost of tool schemas, each measured in a fresh process.
//!
//! Specs are built on first use and cached for the life of the process (a `OnceLock` per tool
//! here, a `OnceLock` list by hand, a per-type schema cache in rmcp), so a loop in one process
//! would time the cache, not the build. Instead this binary starts itself once per sample with
//! `FIRST_USE=<case>`; the child times the first call and then a second one with
//! `Instant::now()` around each and prints both in nanoseconds; the parent reports the
//! medians over the samples. Process start-up is outside the timed section.
//!
//! Run: `cargo bench -p benches --bench first_use` (set `FIRST_USE_SAMPLES` to change the
//! number of processes per case; the default is 31).

use std::hint::black_box;
use std::process::Command;
use std::time::Instant;

use benches::{hand, ours, peer};
use tool_executor::{Tool, ToolExecutor};

/// What each case does: (name, what it builds).
const CASES: &[(&str, &str)] = &[
    ("ours_one", "`t00::spec()` of one `#[tool]`"),
    (
        "hand_one",
        "one hand-written spec from `schema_for!` in a `OnceLock`",
    ),
    ("rmcp_one", "rmcp's generated `Server::t00_tool_attr()`"),
    ("ours_twenty", "`toolset![t00, …, t19]` and its `specs()`"),
    (
        "hand_twenty",
        "the hand-written `OnceLock` list of 20 specs",
    ),
    (
        "rmcp_twenty",
        "rmcp's `Server::tool_router()` and its `list_all()`",
    ),
];

fn run_case(case: &str) -> usize {
    match case {
        "ours_one" => black_box(<ours::t00 as Tool>::spec())
            .input_schema
            .as_object()
            .map_or(0, serde_json::Map::len),
        "hand_one" => black_box(hand::spec_t00())
            .input_schema
            .as_object()
            .map_or(0, serde_json::Map::len),
        "rmcp_one" => black_box(peer::Server::t00_tool_attr()).input_schema.len(),
        "ours_twenty" => black_box(ours::toolset()).specs().len(),
        "hand_twenty" => black_box(hand::specs()).len(),
        "rmcp_twenty" => black_box(peer::Server::tool_router()).list_all().len(),
        other => panic!("unknown first-use case `{other}`"),
    }
}

/// In the child: time the first and the second use.
fn child(case: &str) {
    let start = Instant::now();
    let first = run_case(case);
    let first_ns = start.elapsed().as_nanos();
    let start = Instant::now();
    let second = run_case(case);
    let second_ns = start.elapsed().as_nanos();
    assert_eq!(first, second, "the cached result differs from the first");
    println!("{first_ns} {second_ns}");
}

fn median(values: &mut [u128]) -> u128 {
    values.sort_unstable();
    values[values.len() / 2]
}

fn main() {
    if let Ok(case) = std::env::var("FIRST_USE") {
        child(&case);
        return;
    }
    let samples: usize = std::env::var("FIRST_USE_SAMPLES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(31);
    let exe = std::env::current_exe().expect("the benchmark's own path");
    println!("first use, median of {samples} fresh processes per case");
    println!(
        "{:<12} {:>12} {:>12}  what",
        "case", "first (ns)", "second (ns)"
    );
    for (case, what) in CASES {
        let mut firsts = Vec::with_capacity(samples);
        let mut seconds = Vec::with_capacity(samples);
        for _ in 0..samples {
            let out = Command::new(&exe)
                .env("FIRST_USE", case)
                .output()
                .expect("the benchmark starts itself");
            assert!(out.status.success(), "case {case} failed: {out:?}");
            let text = String::from_utf8_lossy(&out.stdout);
            let mut fields = text.split_whitespace().map(str::parse::<u128>);
            let (Some(Ok(first)), Some(Ok(second))) = (fields.next(), fields.next()) else {
                panic!("case {case} printed {text:?}")
            };
            firsts.push(first);
            seconds.push(second);
        }
        println!(
            "{case:<12} {:>12} {:>12}  {what}",
            median(&mut firsts),
            median(&mut seconds)
        );
    }
}
