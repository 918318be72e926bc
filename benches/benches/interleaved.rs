//! Budget ratios measured by interleaving: each round times a short batch of the baseline and
//! a short batch of the candidate back to back (alternating which goes first), and the
//! reported ratio is the median of the per-round ratios.
//!
//! criterion (`--bench tools`) times one function for seconds, then the next; on a shared
//! machine a build that starts in between skews the pair. Interleaved rounds of about a
//! millisecond see the same load, so their ratios stay put when the absolute times do not.
//!
//! The MCP pair runs both servers and the client on one current-thread runtime, so it compares
//! the whole round trip's CPU cost (client, pipe and server), with the same client for both.
//!
//! Run: `cargo bench -p benches --bench interleaved` (`INTERLEAVED_ROUNDS` changes the number
//! of rounds; the default is 301).

use std::collections::HashMap;
use std::hint::black_box;
use std::time::{Duration, Instant};

use benches::{CALLED, arguments, hand, mcp, ours, ready};
use tool_executor::ToolExecutor;

/// Calls per batch, chosen so a batch of the slowest in-process case takes about a
/// millisecond.
const BATCH: u32 = 2_000;

/// Spawned calls per batch: a spawn and a wait on a current-thread runtime take a few µs.
const SPAWN_BATCH: u32 = 200;

/// MCP round trips per batch: a round trip takes about 50 µs.
const MCP_BATCH: u32 = 40;

fn time_batch(batch: u32, mut f: impl FnMut()) -> Duration {
    let start = Instant::now();
    for _ in 0..batch {
        f();
    }
    start.elapsed()
}

fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

/// Prints `candidate` against `baseline`: median ns per call of each and the median ratio.
fn compare(name: &str, rounds: usize, baseline: impl FnMut(), candidate: impl FnMut()) {
    compare_in(BATCH, name, rounds, baseline, candidate);
}

fn compare_in(
    batch: u32,
    name: &str,
    rounds: usize,
    mut baseline: impl FnMut(),
    mut candidate: impl FnMut(),
) {
    // Warm caches and allocator before the first round counts.
    time_batch(batch, &mut baseline);
    time_batch(batch, &mut candidate);
    let (mut base_ns, mut cand_ns, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
    for round in 0..rounds {
        let (b, c) = if round % 2 == 0 {
            let b = time_batch(batch, &mut baseline);
            (b, time_batch(batch, &mut candidate))
        } else {
            let c = time_batch(batch, &mut candidate);
            (time_batch(batch, &mut baseline), c)
        };
        let (b, c) = (b.as_secs_f64() * 1e9, c.as_secs_f64() * 1e9);
        base_ns.push(b / f64::from(batch));
        cand_ns.push(c / f64::from(batch));
        ratios.push(c / b);
    }
    println!(
        "{name:<44} baseline {:>8.1} ns  candidate {:>8.1} ns  ratio {:.3}",
        median(&mut base_ns),
        median(&mut cand_ns),
        median(&mut ratios)
    );
}

fn main() {
    let rounds: usize = std::env::var("INTERLEAVED_ROUNDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(301);
    let args = arguments();
    let effects = HashMap::new();
    let set = ours::toolset();
    let borrowed = ours::borrowed::toolset();
    let expected = serde_json::json!({"tool": 10, "total": 84, "flagged": true});
    let classified = |set: &tool_executor::ToolSet| {
        ready(set.execute_classified(CALLED, &args, "", None, None, 1, &effects, None))
    };
    assert_eq!(classified(&set).map(|e| e.output), Ok(expected.clone()));
    assert_eq!(ready(hand::call(CALLED, &args)), Ok(expected));

    println!(
        "interleaved: {rounds} rounds of {BATCH} calls ({MCP_BATCH} MCP round trips) each, medians"
    );
    let hand_call = || {
        black_box(ready(hand::call(black_box(CALLED), black_box(&args)))).ok();
    };
    compare(
        "call: ours execute_classified / hand-written",
        rounds,
        hand_call,
        || {
            black_box(classified(black_box(&set))).ok();
        },
    );
    compare(
        "call: ours borrowed &str / hand-written",
        rounds,
        hand_call,
        || {
            black_box(classified(black_box(&borrowed))).ok();
        },
    );
    compare(
        "call: ours Tool::run (no ToolSet) / hand",
        rounds,
        hand_call,
        || {
            black_box(ready(<ours::t10 as tool_executor::Tool>::run(
                black_box(&args),
                tool_executor::ToolContext::new(),
            )))
            .ok();
        },
    );
    compare(
        "call: ours execute_with_context / hand",
        rounds,
        hand_call,
        || {
            black_box(ready(black_box(&set).execute_with_context(
                black_box(CALLED),
                black_box(&args),
                tool_executor::ToolContext::new(),
            )))
            .ok();
        },
    );
    compare(
        "list: ours specs() / hand-written OnceLock",
        rounds,
        || {
            black_box(hand::specs());
        },
        || {
            black_box(black_box(&set).specs());
        },
    );

    provider(rounds, &set);

    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a Tokio runtime");
    runtime_pairs(rounds, &rt, &set, &args);

    let (ours_client, rmcp_client) =
        rt.block_on(async { (mcp::connect_ours().await, mcp::connect_rmcp().await) });
    let params = mcp::params();
    let expected = Some(serde_json::json!({"tool": 10, "total": 84, "flagged": true}));
    assert_eq!(
        rt.block_on(mcp::call(&ours_client, params.clone())),
        expected
    );
    assert_eq!(
        rt.block_on(mcp::call(&rmcp_client, params.clone())),
        expected
    );
    compare_in(
        MCP_BATCH,
        "mcp round trip: ours McpServer / rmcp server",
        rounds,
        || {
            black_box(rt.block_on(mcp::call(&rmcp_client, black_box(params.clone()))));
        },
        || {
            black_box(rt.block_on(mcp::call(&ours_client, black_box(params.clone()))));
        },
    );
}

/// Provider definitions (cached and first computed) against listing specs, and answering an
/// OpenAI Chat tool call against a direct call plus the same JSON work done by hand (read the
/// call out of the completion, parse the arguments string, serialize the output, build the
/// `role: tool` message).
fn provider(rounds: usize, set: &tool_executor::ToolSet) {
    use tool_executor::provider::{Definitions, Provider};

    let defs = set
        .definitions(Provider::OpenAiChat)
        .expect("distinct names");
    compare(
        "definitions: cached openai / specs()",
        rounds,
        || {
            black_box(black_box(set).specs());
        },
        || {
            black_box(black_box(set).definitions(Provider::OpenAiChat)).ok();
        },
    );
    compare_in(
        20,
        "definitions: first openai (20 tools) / specs()",
        rounds.min(31),
        || {
            black_box(black_box(set).specs());
        },
        || {
            black_box(Definitions::from_specs(
                black_box(set).list(),
                Provider::OpenAiChat,
            ))
            .ok();
        },
    );
    let response = benches::provider::completion();
    let direct = || {
        black_box(benches::provider::direct(
            black_box(set),
            black_box(&response),
        ));
    };
    let adapted = || {
        benches::provider::answered(&defs, black_box(set), &response, |m| {
            black_box(m);
        });
    };
    let expected = benches::provider::messages(&defs, set, &response);
    assert_eq!(
        expected[0]["content"],
        r#"{"flagged":true,"tool":10,"total":84}"#
    );
    assert_eq!(
        expected,
        vec![benches::provider::direct(set, &response).expect("answered")]
    );
    compare(
        "adapter: answer openai call / direct + JSON",
        rounds,
        direct,
        adapted,
    );
}

/// The runtime's two pairs: a call through `Runtime` against the bare `ToolSet`, and a
/// detached call against `tokio::spawn` of the bare call.
fn runtime_pairs(
    rounds: usize,
    rt: &tokio::runtime::Runtime,
    set: &tool_executor::ToolSet,
    args: &serde_json::Value,
) {
    let runtime = tool_executor::runtime::Runtime::new(set.clone());
    let bare_call = || {
        black_box(ready(black_box(&set).execute_with_context(
            black_box(CALLED),
            black_box(args),
            tool_executor::ToolContext::new(),
        )))
        .ok();
    };
    compare(
        "runtime: Runtime::call / ToolSet with context",
        rounds,
        bare_call,
        || {
            black_box(ready(
                black_box(&runtime).call(black_box(CALLED), black_box(args)),
            ))
            .ok();
        },
    );

    compare_in(
        SPAWN_BATCH,
        "runtime: spawn + wait / tokio::spawn of the call",
        rounds,
        || {
            let _entered = rt.enter();
            let set = set.clone();
            let args = args.clone();
            let task = tokio::spawn(async move {
                set.execute_with_context(CALLED, &args, tool_executor::ToolContext::new())
                    .await
            });
            black_box(rt.block_on(task).expect("the task ran").ok());
        },
        || {
            let _entered = rt.enter();
            let handle = runtime.spawn(CALLED, args.clone()).expect("in a runtime");
            black_box(rt.block_on(handle.wait()).ok());
        },
    );
}
