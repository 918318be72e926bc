//! Wall-clock latency of a task and its first `tasks/get` against a plain call, in-memory and
//! (feature `postgres`, URL in `EXECUTOR_BENCH_POSTGRES`) on PostgreSQL (BENCHMARKS.md §17):
//! interleaved rounds of 200 of each, medians per operation over 10 rounds.
//!
//! ```text
//! cargo run --release -p benches --features postgres --example task_latency
//! ```

use std::time::{Duration, Instant};

use benches::tasks::Wire;

const ROUNDS: usize = 10;
const PER_ROUND: u32 = 200;

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn main() {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a Tokio runtime");
    rt.block_on(async {
        let mut memory = Wire::start();
        #[cfg(feature = "postgres")]
        let mut postgres = match std::env::var("EXECUTOR_BENCH_POSTGRES") {
            Ok(url) => Some(Wire::with_postgres(&url).await),
            Err(_) => None,
        };
        let (mut plain, mut task) = (Vec::new(), Vec::new());
        #[cfg_attr(not(feature = "postgres"), allow(unused_mut))] // pushed only with PostgreSQL
        let mut pg: Vec<Duration> = Vec::new();
        for _ in 0..ROUNDS {
            let started = Instant::now();
            for _ in 0..PER_ROUND {
                memory.plain_call().await;
            }
            plain.push(started.elapsed() / PER_ROUND);
            let started = Instant::now();
            for _ in 0..PER_ROUND {
                memory.task_and_first_get().await;
            }
            task.push(started.elapsed() / PER_ROUND);
            #[cfg(feature = "postgres")]
            if let Some(wire) = postgres.as_mut() {
                let started = Instant::now();
                for _ in 0..PER_ROUND {
                    wire.task_and_first_get().await;
                }
                pg.push(started.elapsed() / PER_ROUND);
            }
        }
        let (plain, task) = (median(plain), median(task));
        println!("plain call: {plain:?}");
        println!(
            "task + first get, memory: {task:?} ({:.2}x)",
            task.as_secs_f64() / plain.as_secs_f64()
        );
        if !pg.is_empty() {
            let pg = median(pg);
            println!(
                "task + first get, PostgreSQL: {pg:?} ({:.2}x)",
                pg.as_secs_f64() / plain.as_secs_f64()
            );
        }
    });
}
