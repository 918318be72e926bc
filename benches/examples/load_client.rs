//! The load client for the load figures (`benches/load/run.sh`): N concurrent keep-alive
//! clients calling back to back, then one line of results on stdout.
//!
//! ```text
//! load_client mcp URL CLIENTS [--initialize] [--warmup SECS] [--seconds SECS]
//! load_client a2a URL CLIENTS [--warmup SECS] [--seconds SECS]
//! ```
//!
//! `mcp` calls `tools/call` of `t10` (negotiating 2026-07-28 unless `--initialize`);
//! `a2a` sends JSON-RPC `SendMessage` to an echo agent. Defaults: 1 s warm-up, 5 s measured.
//! Exits 1 if any call failed.

use std::time::Duration;

use benches::load::{A2aCaller, McpCaller, Plan, Report, drive};

struct Args {
    kind: String,
    url: String,
    clients: usize,
    initialize: bool,
    plan: Plan,
}

fn usage() -> ! {
    eprintln!(
        "usage: load_client mcp|a2a URL CLIENTS [--initialize] [--warmup SECS] [--seconds SECS]"
    );
    std::process::exit(2)
}

fn seconds(value: Option<String>) -> Duration {
    value
        .and_then(|v| v.parse::<f64>().ok())
        .filter(|v| v.is_finite() && *v > 0.0 && *v < 600.0)
        .map_or_else(|| usage(), Duration::from_secs_f64)
}

fn args() -> Args {
    let mut args = std::env::args().skip(1);
    let (Some(kind), Some(url), Some(clients)) = (args.next(), args.next(), args.next()) else {
        usage()
    };
    let clients = clients
        .parse()
        .ok()
        .filter(|n| (1..=1000).contains(n))
        .unwrap_or_else(|| usage());
    let mut parsed = Args {
        kind,
        url,
        clients,
        initialize: false,
        plan: Plan {
            warmup: Duration::from_secs(1),
            measure: Duration::from_secs(5),
        },
    };
    while let Some(flag) = args.next() {
        match flag.as_str() {
            "--initialize" => parsed.initialize = true,
            "--warmup" => parsed.plan.warmup = seconds(args.next()),
            "--seconds" => parsed.plan.measure = seconds(args.next()),
            _ => usage(),
        }
    }
    parsed
}

async fn run(args: &Args) -> Result<Report, String> {
    match args.kind.as_str() {
        "mcp" => {
            let mut callers = Vec::with_capacity(args.clients);
            let mut version = String::new();
            for _ in 0..args.clients {
                let (caller, negotiated) = McpCaller::connect(&args.url, args.initialize).await?;
                callers.push(caller);
                version = negotiated;
            }
            print!("protocol={version} ");
            Ok(drive(callers, args.plan).await)
        }
        "a2a" => {
            let callers = (0..args.clients as u64)
                .map(|n| A2aCaller::new(&args.url, n))
                .collect::<Result<Vec<_>, _>>()?;
            Ok(drive(callers, args.plan).await)
        }
        _ => usage(),
    }
}

#[tokio::main]
async fn main() {
    let args = args();
    match run(&args).await {
        Ok(report) => {
            println!("{report}");
            if report.errors > 0 {
                std::process::exit(1);
            }
        }
        Err(error) => {
            eprintln!("load_client: {error}");
            std::process::exit(1);
        }
    }
}
