//! Load figures (issue 13, point 7): N concurrent keep-alive clients, each calling in a loop
//! for a fixed time, against MCP `tools/call` (our `McpServer` or rmcp's `#[tool_handler]`
//! server, the same 20 tools) and A2A `SendMessage`. Used by `examples/load_server.rs` and
//! `examples/load_client.rs`, which `benches/load/run.sh` starts; numbers in BENCHMARKS.md §10.2.
//!
//! Every client has its own `reqwest` pool (keep-alive, `TCP_NODELAY`), so N clients hold N
//! connections. Calls that start in the warm-up are not counted; a call's latency is from its
//! send to its decoded, checked answer.

use std::fmt;
use std::future::Future;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use rmcp::model::CallToolRequestParams;
use rmcp::service::{ClientLifecycleMode, ClientServiceExt, RoleClient, RunningService};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use serde_json::{Value, json};
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;
use tool_executor::mcp::McpServer;

use super::{http, mcp, ours};

/// Which MCP server `load_server` runs, on the 20 bench tools.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Server {
    /// Our `McpServer` (`serve_http_on`).
    Ours,
    /// rmcp's `#[tool_handler]` server on rmcp's `StreamableHttpService`.
    Rmcp,
}

/// Serves `server` on `listener` until `stop` fires; `stateless` is rmcp's stateless mode
/// (no session, JSON answers) for both, as `McpServer::with_stateless_http` sets it.
pub async fn serve(
    server: Server,
    stateless: bool,
    listener: TcpListener,
    stop: CancellationToken,
) {
    match server {
        Server::Ours => {
            let server = McpServer::new(ours::toolset()).with_stateless_http(stateless);
            let _ = server.serve_http_on(listener, stop).await;
        }
        Server::Rmcp => http::serve_rmcp_on(listener, stateless, stop).await,
    }
}

/// One kind of call a load client makes.
pub trait Caller: Send + Sync + 'static {
    /// Makes one call and checks its answer.
    fn call(&self) -> impl Future<Output = Result<(), String>> + Send;
}

/// An rmcp client calling `t10` over streamable HTTP.
pub struct McpCaller {
    client: RunningService<RoleClient, ()>,
    params: CallToolRequestParams,
    expected: Value,
}

impl McpCaller {
    /// Connects one client with its own keep-alive pool; `initialize` forces the 2025-11-25
    /// handshake (a session), else the client negotiates 2026-07-28 when the server offers it.
    /// Returns the caller and the negotiated protocol version.
    ///
    /// # Errors
    /// When the client cannot be built or the handshake fails.
    pub async fn connect(url: &str, initialize: bool) -> Result<(Self, String), String> {
        let pool = reqwest::Client::builder()
            .tcp_nodelay(true)
            .build()
            .map_err(|e| e.to_string())?;
        let transport = StreamableHttpClientTransport::with_client(
            pool,
            StreamableHttpClientTransportConfig::with_uri(url.to_owned()),
        );
        let mode = if initialize {
            ClientLifecycleMode::Initialize
        } else {
            ClientLifecycleMode::Auto {
                preferred_versions: vec![rmcp::model::ProtocolVersion::V_2026_07_28],
                legacy_version: Some(rmcp::model::ProtocolVersion::LATEST_WITH_INITIALIZE),
            }
        };
        let client = ().serve_with_lifecycle(transport, mode).await;
        let client = client.map_err(|e| e.to_string())?;
        let version = client
            .peer()
            .peer_info()
            .map_or_else(String::new, |info| info.protocol_version.to_string());
        let caller = Self {
            client,
            params: mcp::params(),
            expected: json!({"tool": 10, "total": 84, "flagged": true}),
        };
        Ok((caller, version))
    }
}

impl Caller for McpCaller {
    async fn call(&self) -> Result<(), String> {
        let result = self.client.call_tool(self.params.clone()).await;
        let result = result.map_err(|e| e.to_string())?;
        if result.structured_content.as_ref() == Some(&self.expected) {
            Ok(())
        } else {
            Err(format!("unexpected result: {result:?}"))
        }
    }
}

/// A JSON-RPC `SendMessage` client of an A2A agent (the `echo` agent of `examples/a2a_agent`):
/// one text message per call, a fresh message id each time.
pub struct A2aCaller {
    pool: reqwest::Client,
    url: String,
    client: u64,
    next: AtomicU64,
}

impl A2aCaller {
    /// A caller with its own keep-alive pool; `client` tells its message ids apart.
    ///
    /// # Errors
    /// When the HTTP client cannot be built.
    pub fn new(url: &str, client: u64) -> Result<Self, String> {
        let pool = reqwest::Client::builder()
            .tcp_nodelay(true)
            .build()
            .map_err(|e| e.to_string())?;
        Ok(Self {
            pool,
            url: url.to_owned(),
            client,
            next: AtomicU64::new(0),
        })
    }

    fn body(&self) -> Vec<u8> {
        let n = self.next.fetch_add(1, Ordering::Relaxed);
        let message = json!({
            "messageId": format!("load-{}-{}-{n}", std::process::id(), self.client),
            "role": "ROLE_USER",
            "parts": [{"text": "hello agent"}],
        });
        let request = json!({
            "jsonrpc": "2.0", "id": n, "method": "SendMessage", "params": {"message": message},
        });
        request.to_string().into_bytes()
    }
}

impl Caller for A2aCaller {
    async fn call(&self) -> Result<(), String> {
        let response = self
            .pool
            .post(&self.url)
            .header("A2A-Version", "1.0")
            .header("Content-Type", "application/json")
            .body(self.body())
            .send()
            .await
            .map_err(|e| e.to_string())?;
        let bytes = response.bytes().await.map_err(|e| e.to_string())?;
        let answer: Value = serde_json::from_slice(&bytes).map_err(|e| e.to_string())?;
        // The echo agent answers with a completed task or a message.
        let result = &answer["result"];
        if result.get("task").is_some() || result.get("message").is_some() {
            Ok(())
        } else {
            Err(format!("unexpected answer: {answer}"))
        }
    }
}

/// How long to warm up and to measure.
#[derive(Debug, Clone, Copy)]
pub struct Plan {
    /// Calls started in this first stretch are not counted.
    pub warmup: Duration,
    /// The measured stretch.
    pub measure: Duration,
}

/// What one run measured.
#[derive(Debug, Clone)]
pub struct Report {
    /// Concurrent clients.
    pub clients: usize,
    /// Calls started in the measured stretch, answered or not.
    pub calls: u64,
    /// Of those, calls that failed.
    pub errors: u64,
    /// The first failure's message.
    pub first_error: Option<String>,
    /// The measured stretch.
    pub measure: Duration,
    /// Every counted call's latency in microseconds, sorted.
    latencies: Vec<u32>,
}

impl Report {
    /// Answered calls per second.
    #[must_use]
    #[allow(clippy::cast_precision_loss)] // counts far below 2^52
    pub fn per_second(&self) -> f64 {
        (self.calls - self.errors) as f64 / self.measure.as_secs_f64()
    }

    /// The `q` quantile of the latencies (nearest rank), in microseconds.
    #[must_use]
    #[allow(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        clippy::cast_precision_loss
    )]
    pub fn quantile(&self, q: f64) -> u32 {
        if self.latencies.is_empty() {
            return 0;
        }
        let rank = (q * self.latencies.len() as f64).ceil() as usize;
        self.latencies[rank.clamp(1, self.latencies.len()) - 1]
    }
}

/// A call this slow may have waited for a delayed ACK (about 40 ms on Linux), the stall of
/// issue 13; it can also be a busy machine's scheduling, so the count is an upper bound.
pub const STALL_MICROS: u32 = 40_000;

impl Report {
    /// How many counted calls took at least `micros`.
    #[must_use]
    pub fn over(&self, micros: u32) -> usize {
        self.latencies.len() - self.latencies.partition_point(|&l| l < micros)
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "clients={} calls={} errors={} calls_per_s={:.0} p50_us={} p99_us={} max_us={} over_40ms={}",
            self.clients,
            self.calls,
            self.errors,
            self.per_second(),
            self.quantile(0.5),
            self.quantile(0.99),
            self.latencies.last().copied().unwrap_or(0),
            self.over(STALL_MICROS),
        )?;
        if let Some(error) = &self.first_error {
            write!(f, " first_error={error:?}")?;
        }
        Ok(())
    }
}

/// What one client counted.
#[derive(Default)]
struct Tally {
    latencies: Vec<u32>,
    errors: u64,
    first_error: Option<String>,
}

/// Runs every caller in its own task, calling back to back, for `plan`; merges the tallies.
///
/// # Panics
/// If a client task panics.
pub async fn drive<C: Caller>(callers: Vec<C>, plan: Plan) -> Report {
    let clients = callers.len();
    let start = Instant::now() + plan.warmup;
    let end = start + plan.measure;
    let tasks: Vec<_> = callers
        .into_iter()
        .map(|caller| tokio::spawn(work(caller, start, end)))
        .collect();
    let mut report = Report {
        clients,
        calls: 0,
        errors: 0,
        first_error: None,
        measure: plan.measure,
        latencies: Vec::new(),
    };
    for task in tasks {
        let tally = task.await.expect("a client task");
        report.calls += tally.latencies.len() as u64;
        report.errors += tally.errors;
        report.first_error = report.first_error.or(tally.first_error);
        report.latencies.extend(tally.latencies);
    }
    report.latencies.sort_unstable();
    report
}

async fn work<C: Caller>(caller: C, start: Instant, end: Instant) -> Tally {
    let mut tally = Tally::default();
    loop {
        let begun = Instant::now();
        if begun >= end {
            return tally;
        }
        let outcome = caller.call().await;
        if begun < start {
            continue;
        }
        let micros = u32::try_from(begun.elapsed().as_micros()).unwrap_or(u32::MAX);
        tally.latencies.push(micros);
        if let Err(error) = outcome {
            tally.errors += 1;
            tally.first_error.get_or_insert(error);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(latencies: Vec<u32>, errors: u64) -> Report {
        Report {
            clients: 1,
            calls: latencies.len() as u64,
            errors,
            first_error: None,
            measure: Duration::from_secs(2),
            latencies,
        }
    }

    #[test]
    fn quantiles_are_nearest_rank_and_the_rate_counts_answered_calls() {
        let r = report((1..=100).collect(), 10);
        assert_eq!(r.quantile(0.5), 50);
        assert_eq!(r.quantile(0.99), 99);
        assert_eq!(r.quantile(1.0), 100);
        assert!((r.per_second() - 45.0).abs() < f64::EPSILON);
        assert_eq!(
            r.to_string(),
            "clients=1 calls=100 errors=10 calls_per_s=45 p50_us=50 p99_us=99 max_us=100 over_40ms=0"
        );
        assert_eq!(r.over(91), 10);
        assert_eq!(report(Vec::new(), 0).quantile(0.99), 0);
    }
}
