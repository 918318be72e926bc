//! The cost of running a sync tool on the blocking pool (issue 15, point 4): the same body as
//! a sync `#[tool]` that runs in place (`inline`: no context, no timeout) and one that takes a
//! `&ToolContext` and so goes through `spawn_blocking` (`pooled`), each awaited in a loop on a
//! current-thread runtime; `none` builds the runtime and the set only, to subtract.
//!
//! ```text
//! cargo build --release -p benches --example sync_tools
//! valgrind --tool=callgrind target/release/examples/sync_tools inline 20000
//! valgrind --tool=callgrind target/release/examples/sync_tools pooled 20000
//! target/release/examples/sync_tools interleaved 20000   # wall clock, both styles alternated
//! ```

use std::hint::black_box;
use std::time::{Duration, Instant};

use tool_executor::ToolSet;
use tool_executor::prelude::*;

/// Adds, in place.
#[tool]
fn inline(a: i64, b: i64) -> i64 {
    a.wrapping_add(b)
}

/// Adds, on the blocking pool (it takes the context).
#[tool]
fn pooled(a: i64, b: i64, ctx: &ToolContext) -> i64 {
    black_box(ctx.attempt());
    a.wrapping_add(b)
}

async fn calls(set: &ToolSet, tool: &str, n: usize) -> usize {
    let params = json!({"a": 40, "b": 2});
    let mut ok = 0;
    for _ in 0..n {
        let out = set
            .execute_with_context(black_box(tool), black_box(&params), ToolContext::new())
            .await;
        ok += usize::from(out.is_ok_and(|e| e.output == json!(42)));
    }
    ok
}

/// Both styles in alternating rounds of 1,000 calls; the wall time per call of each.
async fn interleaved(set: &ToolSet, n: usize) {
    let (mut inline, mut pooled) = (Duration::ZERO, Duration::ZERO);
    let rounds = u32::try_from(n.div_ceil(1_000)).expect("fewer than 2^32 rounds");
    for _ in 0..rounds {
        for (tool, total) in [("inline", &mut inline), ("pooled", &mut pooled)] {
            let start = Instant::now();
            assert_eq!(calls(set, tool, 1_000).await, 1_000);
            *total += start.elapsed();
        }
    }
    let per_call = |total: Duration| total.as_secs_f64() * 1e9 / f64::from(rounds * 1_000);
    println!(
        "inline: {:.0} ns/call, pooled: {:.0} ns/call",
        per_call(inline),
        per_call(pooled)
    );
}

fn main() {
    let mut args = std::env::args().skip(1);
    let style = args.next().unwrap_or_else(|| "pooled".to_owned());
    let n: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(20_000);
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a Tokio runtime");
    let set = toolset![inline, pooled];
    rt.block_on(async {
        match style.as_str() {
            "inline" | "pooled" => {
                let ok = calls(&set, &style, n).await;
                println!("{style}: {ok} of {n} calls succeeded");
            }
            "interleaved" => interleaved(&set, n).await,
            "none" => println!("none: set-up only"),
            other => panic!("unknown style `{other}`: inline, pooled, interleaved or none"),
        }
    });
}
