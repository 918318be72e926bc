//! Calls one style's tool in a loop, for instruction counting under callgrind:
//!
//! ```text
//! cargo build --release -p benches --example profile
//! valgrind --tool=callgrind target/release/examples/profile ours 100000
//! ```
//!
//! Styles: `ours` (through the `ToolSet`), `ours_borrowed`, `ours_tool` (`Tool::call` directly),
//! `hand`, `none` (set-up only, to subtract).

use std::collections::HashMap;
use std::hint::black_box;

use benches::{CALLED, arguments, hand, ours, ready};
use executor_core::ToolExecutor;

fn main() {
    let mut args = std::env::args().skip(1);
    let style = args.next().unwrap_or_else(|| "ours".to_owned());
    let n: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(100_000);
    let params = arguments();
    let effects = HashMap::new();
    let set = ours::toolset();
    let borrowed = ours::borrowed::toolset();
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
            "ours_tool" => ready(<ours::t10 as executor_core::Tool>::call(
                black_box(&params),
                executor_core::ToolContext::new(),
            ))
            .is_ok(),
            "hand" => ready(hand::call(black_box(CALLED), black_box(&params))).is_ok(),
            "none" => true,
            other => {
                panic!("unknown style `{other}`: ours, ours_borrowed, ours_tool, hand or none")
            }
        };
        ok += usize::from(done);
    }
    println!("{style}: {ok} of {n} calls succeeded");
}
