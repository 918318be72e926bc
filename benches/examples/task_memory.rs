//! Memory held by 10,000 finished MCP tasks in the default in-memory store, before the TTL
//! sweep (BENCHMARKS.md §17): the resident set after 1,000 warm-up tasks against after 10,000
//! more, each created over an in-memory pipe and read back `completed` (the workspace forbids
//! `unsafe`, so no counting allocator: the figure includes what the allocator keeps).
//!
//! ```text
//! cargo run --release -p benches --example task_memory
//! ```

use benches::tasks::Wire;

/// The process's resident set, in KiB (`VmRSS` in `/proc/self/status`; Linux).
fn rss_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").expect("Linux /proc");
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("a VmRSS line")
}

const TASKS: usize = 10_000;

async fn finish(wire: &mut Wire, n: usize) {
    let mut ids = Vec::with_capacity(n);
    for _ in 0..n {
        ids.push(wire.task_and_first_get().await.0);
    }
    for id in ids {
        loop {
            let reply = wire.get(&id).await;
            if reply["result"]["status"] == "completed" {
                break;
            }
            tokio::task::yield_now().await;
        }
    }
}

fn main() {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a Tokio runtime");
    rt.block_on(async {
        // Room for all of them, so none is forgotten to make room.
        let mut wire = Wire::with_store_limit(2 * TASKS);
        finish(&mut wire, 1_000).await;
        let before = rss_kib();
        finish(&mut wire, TASKS).await;
        let after = rss_kib();
        let grown = after.saturating_sub(before);
        println!(
            "{TASKS} finished tasks: the resident set grew {grown} KiB, {} bytes a task",
            grown * 1024 / TASKS as u64
        );
    });
}
