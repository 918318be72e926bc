//! Calls one style's tool in a loop, for instruction counting under callgrind:
//!
//! ```text
//! cargo build --release -p benches --example profile
//! valgrind --tool=callgrind target/release/examples/profile ours 100000
//! ```
//!
//! Styles: `ours` (through the `ToolSet`), `ours_execute` (the seed's plain `execute`), `ours_borrowed`, `ours_tool` (`Tool::run` directly),
//! `ours_ctx` (`ToolSet::execute_with_context` with a new context), `runtime` (`Runtime::call`
//! over the same set, default policy), `answer` (an OpenAI Chat completion with one tool call
//! answered by `Definitions::answer`, its messages moved out with `into_messages`),
//! `answer_direct` (the same call by hand: read the call's id, name and arguments out of the
//! completion, parse the arguments string, `execute_with_context` with the call id, serialize
//! the output, build the `role: tool` message), `answer_direct_known` (the same without
//! reading the call: its id, name and arguments string given), `hand`, `none` (set-up only, to subtract); and MCP
//! round trips over an in-memory pipe on a
//! current-thread runtime, client and server together: `mcp_ours`, `mcp_rmcp`, `mcp_none`
//! (connect only, to subtract). Transformed sets over the same tools (BENCHMARKS.md §15):
//! `hooked` (one no-op before hook), `hooked_after` (one no-op after hook), `described` (a new
//! description, nothing on the call path), `visible` (a `Visibility` that hides nothing), all
//! called as `ours` is.

use std::collections::HashMap;
use std::hint::black_box;

use benches::{CALLED, arguments, hand, mcp, ours, ready};
use tool_executor::transform::{AfterCall, BeforeCall, Transform, Transformed, Visibility};
use tool_executor::{ToolExecution, ToolExecutor, ToolFailure, ToolSet};

/// `n` MCP round trips against one server (`ours`, `rmcp`, or `none` to only connect).
fn mcp_round_trips(server: &str, n: usize) {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a Tokio runtime");
    rt.block_on(async {
        let client = match server {
            "ours" | "none" => mcp::connect_ours().await,
            "rmcp" => mcp::connect_rmcp().await,
            other => panic!("unknown MCP server `{other}`: ours, rmcp or none"),
        };
        let params = mcp::params();
        let calls = if server == "none" { 0 } else { n };
        let mut ok = 0usize;
        for _ in 0..calls {
            ok += usize::from(
                mcp::call(&client, black_box(params.clone()))
                    .await
                    .is_some(),
            );
        }
        println!("mcp_{server}: {ok} of {calls} round trips answered");
        let _ = client.cancel().await;
    });
}

/// One `execute_classified` call of `t10` as the `ours` style makes it, on `executor`.
#[inline]
fn classified<E: ToolExecutor>(
    executor: &E,
    params: &serde_json::Value,
    effects: &HashMap<String, serde_json::Value>,
) -> bool {
    ready(executor.execute_classified(
        black_box(CALLED),
        black_box(params),
        "",
        None,
        None,
        1,
        effects,
        None,
    ))
    .is_ok()
}

/// The transformed sets of §15 over `set`: one no-op before hook, one no-op after hook, a new
/// description, a `Visibility` that hides nothing.
fn transformed(set: &ToolSet) -> [Transformed<ToolSet>; 4] {
    let build = |t: Transform<ToolSet>| t.build().expect("valid transforms");
    [
        build(Transform::new(set.clone()).before(|_: &mut BeforeCall<'_>| Ok(()))),
        build(
            Transform::new(set.clone())
                .after(|_: &AfterCall<'_>, _: &mut Result<ToolExecution, ToolFailure>| {}),
        ),
        build(Transform::new(set.clone()).describe(CALLED, "The same tool, described anew.")),
        build(Transform::new(set.clone()).visibility(Visibility::new())),
    ]
}

fn main() {
    let mut args = std::env::args().skip(1);
    let style = args.next().unwrap_or_else(|| "ours".to_owned());
    let n: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(100_000);
    if let Some(server) = style.strip_prefix("mcp_") {
        mcp_round_trips(server, n);
        return;
    }
    let params = arguments();
    let effects = HashMap::new();
    let set = ours::toolset();
    let borrowed = ours::borrowed::toolset();
    let runtime = tool_executor::runtime::Runtime::new(set.clone());
    let defs = set
        .definitions(tool_executor::provider::Provider::OpenAiChat)
        .expect("distinct names");
    let [hooked, hooked_after, described, visible] = transformed(&set);
    let completion = benches::provider::completion();
    let arguments_text = benches::provider::arguments_text();
    let mut ok = 0usize;
    for _ in 0..n {
        let done = match style.as_str() {
            "ours" => ready(set.execute_classified(
                black_box(CALLED),
                black_box(&params),
                "",
                None,
                None,
                1,
                &effects,
                None,
            ))
            .is_ok(),
            "ours_borrowed" => ready(borrowed.execute_classified(
                black_box(CALLED),
                black_box(&params),
                "",
                None,
                None,
                1,
                &effects,
                None,
            ))
            .is_ok(),
            "hooked" => classified(&hooked, &params, &effects),
            "hooked_after" => classified(&hooked_after, &params, &effects),
            "described" => classified(&described, &params, &effects),
            "visible" => classified(&visible, &params, &effects),
            "ours_execute" => ready(set.execute(black_box(CALLED), black_box(&params))).is_ok(),
            "ours_tool" => ready(<ours::t10 as tool_executor::Tool>::run(
                black_box(&params),
                tool_executor::ToolContext::new(),
            ))
            .is_ok(),
            "ours_ctx" => ready(set.execute_with_context(
                black_box(CALLED),
                black_box(&params),
                tool_executor::ToolContext::new(),
            ))
            .is_ok(),
            "runtime" => ready(runtime.call(black_box(CALLED), black_box(&params))).is_ok(),
            "answer" => {
                let each = |m| {
                    black_box(m);
                };
                benches::provider::answered(&defs, black_box(&set), black_box(&completion), each)
                    == 1
            }
            "answer_direct" => black_box(benches::provider::direct(
                black_box(&set),
                black_box(&completion),
            ))
            .is_some(),
            "answer_direct_known" => black_box(benches::provider::direct_known(
                black_box(&set),
                black_box(benches::provider::CALL_ID),
                black_box(CALLED),
                black_box(&arguments_text),
            ))
            .is_some(),
            "hand" => ready(hand::call(black_box(CALLED), black_box(&params))).is_ok(),
            "none" => true,
            other => {
                panic!(
                    "unknown style `{other}`: ours, ours_execute, ours_borrowed, ours_tool, ours_ctx, runtime, answer, answer_direct, answer_direct_known, hooked, hooked_after, described, visible, hand, none or mcp_*"
                )
            }
        };
        ok += usize::from(done);
    }
    println!("{style}: {ok} of {n} calls succeeded");
}
