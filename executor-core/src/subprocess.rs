//! `SubprocessToolExecutor`: tools that are programs, one process per call.
//!
//! The protocol is the seed system's: the executor starts `command args…`, writes one
//! JSON-RPC 2.0 request line to its stdin — the tool's name as `method`, the arguments as
//! `params` — and closes stdin; the program prints one JSON-RPC response on stdout and exits.
//!
//! ```text
//! → {"id":1,"jsonrpc":"2.0","method":"word_count","params":{"text":"a b c"}}
//! ← {"jsonrpc":"2.0","id":1,"result":{"words":3}}
//! ```
//!
//! What this adds to the seed: the process runs in its own process group, and the whole group
//! is killed when the call times out, is cancelled or dropped, or when the program exits
//! (a background child it left behind does not outlive the call); stdout is bounded and must
//! be one JSON-RPC response; stderr is bounded and reported in the error.

use std::collections::HashMap;
use std::ffi::OsString;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::{ExitStatus, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use serde_json::{Value, json};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWriteExt};
use tokio::process::Command;

use crate::failure::{Classification, FailureKind, ToolFailure};
use crate::process_group::{Group, own_group};
use crate::tool::SpecList;
use crate::tool::route::unserved;
use crate::tool::{BoxFuture, ContextExecutor, ToolContext, ToolExecution, ToolExecutor, ToolSpec};

/// A tool's own time limit when none is set (the seed's default).
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);
/// How much stdout a response may take by default (1 MiB).
pub const DEFAULT_MAX_STDOUT: usize = 1024 * 1024;
/// How much stderr is kept for the error by default (4 KiB).
pub const DEFAULT_MAX_STDERR: usize = 4 * 1024;

/// One program served as a tool.
///
/// ```
/// use tool_executor::subprocess::SubprocessTool;
/// use tool_executor::ToolSpec;
/// use std::time::Duration;
///
/// let tool = SubprocessTool::new("python3")
///     .arg("tools/word_count.py")
///     .env("LC_ALL", "C")
///     .timeout(Duration::from_secs(5))
///     .spec(ToolSpec::new("word_count", "Counts words.", serde_json::json!({"type": "object"})));
/// assert_eq!(tool.timeout_limit(), Duration::from_secs(5));
/// ```
#[derive(Debug, Clone)]
pub struct SubprocessTool {
    program: OsString,
    args: Vec<OsString>,
    cwd: Option<PathBuf>,
    env: Vec<(OsString, OsString)>,
    timeout: Duration,
    spec: Option<ToolSpec>,
    max_stdout: usize,
    max_stderr: usize,
}

impl SubprocessTool {
    /// Runs `program` (looked up on `PATH`), with a 30 s time limit.
    #[must_use]
    pub fn new(program: impl Into<OsString>) -> Self {
        Self {
            program: program.into(),
            args: Vec::new(),
            cwd: None,
            env: Vec::new(),
            timeout: DEFAULT_TIMEOUT,
            spec: None,
            max_stdout: DEFAULT_MAX_STDOUT,
            max_stderr: DEFAULT_MAX_STDERR,
        }
    }

    /// Adds an argument. The call's arguments never go on the command line.
    #[must_use]
    pub fn arg(mut self, arg: impl Into<OsString>) -> Self {
        self.args.push(arg.into());
        self
    }

    /// Adds arguments.
    #[must_use]
    pub fn args<I, S>(self, args: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<OsString>,
    {
        args.into_iter().fold(self, Self::arg)
    }

    /// Sets the working directory.
    #[must_use]
    pub fn cwd(mut self, dir: impl Into<PathBuf>) -> Self {
        self.cwd = Some(dir.into());
        self
    }

    /// Sets an environment variable.
    #[must_use]
    pub fn env(mut self, key: impl Into<OsString>, value: impl Into<OsString>) -> Self {
        self.env.push((key.into(), value.into()));
        self
    }

    /// The tool's own time limit. A call waits for the larger of this and its own budget.
    #[must_use]
    pub const fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// The spec to list (its name is replaced by the registered name). Without one the tool
    /// is listed with an empty description and a schema that takes any object.
    #[must_use]
    pub fn spec(mut self, spec: ToolSpec) -> Self {
        self.spec = Some(spec);
        self
    }

    /// Bounds the response read from stdout (default 1 MiB); more is a failure.
    #[must_use]
    pub const fn max_stdout_bytes(mut self, bytes: usize) -> Self {
        self.max_stdout = bytes;
        self
    }

    /// Bounds the stderr kept for errors (default 4 KiB); the rest is read and dropped.
    #[must_use]
    pub const fn max_stderr_bytes(mut self, bytes: usize) -> Self {
        self.max_stderr = bytes;
        self
    }

    /// The tool's own time limit.
    #[must_use]
    pub const fn timeout_limit(&self) -> Duration {
        self.timeout
    }

    /// The command for one call: piped stdio, killed on drop, in its own process group.
    fn command(&self) -> Command {
        let mut command = Command::new(&self.program);
        command
            .args(&self.args)
            .envs(self.env.iter().map(|(k, v)| (k, v)))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true);
        own_group(&mut command);
        if let Some(dir) = &self.cwd {
            command.current_dir(dir);
        }
        command
    }
}

/// Programs as tools, one process per call (see the [module docs](self)).
///
/// Failures are ordinary (retryable) unless the program's JSON-RPC error says
/// `"data": {"classification": "terminal"}`; a name it does not serve goes to the fallback, or
/// is an unhandled unknown-tool failure.
#[derive(Default, Clone)]
pub struct SubprocessToolExecutor {
    tools: Vec<(String, Arc<SubprocessTool>)>,
    index: HashMap<String, usize>,
    specs: SpecList,
    fallback: Option<Arc<dyn ToolExecutor>>,
    next_id: Arc<AtomicU64>,
}

impl std::fmt::Debug for SubprocessToolExecutor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_map()
            .entries(self.tools.iter().map(|(n, t)| (n, &t.program)))
            .finish()
    }
}

impl SubprocessToolExecutor {
    /// No tools yet.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Serves `tool` as `name`, replacing a tool of that name.
    pub fn register(&mut self, name: impl Into<String>, tool: SubprocessTool) {
        let name = name.into();
        let tool = Arc::new(tool);
        if let Some(&i) = self.index.get(&name) {
            self.tools[i].1 = tool;
        } else {
            self.index.insert(name.clone(), self.tools.len());
            self.tools.push((name, tool));
        }
        self.specs =
            self.tools
                .iter()
                .map(|(name, tool)| {
                    let mut spec = tool.spec.clone().unwrap_or_else(|| {
                        ToolSpec::new(name.clone(), "", json!({"type": "object"}))
                    });
                    spec.name.clone_from(name);
                    spec.timeout = Some(tool.timeout);
                    Arc::new(spec)
                })
                .collect();
    }

    /// Like [`register`](Self::register), chained.
    #[must_use]
    pub fn with_tool(mut self, name: impl Into<String>, tool: SubprocessTool) -> Self {
        self.register(name, tool);
        self
    }

    /// Sends calls for tools not registered here to `fallback`.
    #[must_use]
    pub fn with_fallback(mut self, fallback: Arc<dyn ToolExecutor>) -> Self {
        self.fallback = Some(fallback);
        self
    }

    async fn run(
        &self,
        name: &str,
        tool: &SubprocessTool,
        params: &Value,
        ctx: &ToolContext,
    ) -> Result<Value, ToolFailure> {
        let limit = ctx
            .remaining()
            .map_or(tool.timeout, |budget| budget.max(tool.timeout));
        let id = self.next_id.fetch_add(1, Ordering::Relaxed) + 1;
        let mut line = serde_json::to_vec(
            &json!({"jsonrpc": "2.0", "method": name, "params": params, "id": id}),
        )
        .map_err(|e| ToolFailure::internal(format!("request did not serialize: {e}")))?;
        line.push(b'\n');
        let mut child = tool.command().spawn().map_err(|e| {
            ToolFailure::ordinary(format!(
                "subprocess tool `{name}`: could not start {}: {e}",
                tool.program.to_string_lossy()
            ))
            .with_code("subprocess_spawn")
        })?;
        // From here on, leaving this function by any path (timeout, cancellation, the caller
        // dropping the call) kills the whole group.
        let group = Group::new(child.id());
        let (stdin, stdout, stderr) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take());
        let write = async move {
            if let Some(mut stdin) = stdin {
                // A program that exits without reading its input is not an error here.
                let _ = stdin.write_all(&line).await;
                let _ = stdin.shutdown().await;
            }
        };
        let read_out = async {
            let out = read_bounded(stdout, tool.max_stdout, false).await;
            if out.overflowed {
                group.kill();
            }
            out
        };
        let wait = async {
            let status = child.wait().await;
            // Whatever the program left running in its group goes with it.
            group.kill();
            status
        };
        let read_err = read_bounded(stderr, tool.max_stderr, true);
        let (status, (), out, err) = tokio::select! {
            done = async { tokio::join!(wait, write, read_out, read_err) } => done,
            () = tokio::time::sleep(limit) => return Err(ToolFailure::timeout(name, limit)),
            () = ctx.cancelled() => return Err(ToolFailure::cancelled(name)),
        };
        group.disarm();
        let status = status.map_err(|e| {
            ToolFailure::ordinary(format!("subprocess tool `{name}`: wait failed: {e}"))
        })?;
        parse_response(name, id, tool.max_stdout, status, &out, &err)
    }
}

/// What was read from a pipe, up to a bound.
struct Captured {
    bytes: Vec<u8>,
    /// More than the bound arrived.
    overflowed: bool,
    /// How many bytes past the bound were dropped (stderr keeps draining).
    dropped: usize,
}

/// Reads up to `max` bytes. Past the bound it either stops (`drain == false`, stdout: the
/// caller then kills the process) or keeps draining so the writer never blocks, keeping
/// nothing more (stderr).
async fn read_bounded<R: AsyncRead + Unpin>(pipe: Option<R>, max: usize, drain: bool) -> Captured {
    let mut captured = Captured {
        bytes: Vec::new(),
        overflowed: false,
        dropped: 0,
    };
    let Some(mut pipe) = pipe else {
        return captured;
    };
    let mut buf = [0u8; 8192];
    loop {
        match pipe.read(&mut buf).await {
            Ok(0) | Err(_) => return captured,
            Ok(n) => {
                let room = max.saturating_sub(captured.bytes.len());
                captured.bytes.extend_from_slice(&buf[..n.min(room)]);
                if n > room {
                    captured.overflowed = true;
                    captured.dropped += n - room;
                    if !drain {
                        return captured;
                    }
                }
            }
        }
    }
}

/// The stderr text for an error message: `; stderr: …` or nothing.
fn stderr_note(err: &Captured) -> String {
    let text = String::from_utf8_lossy(&err.bytes);
    let text = text.trim();
    if text.is_empty() {
        return String::new();
    }
    let mut note = format!("; stderr: {text}");
    if err.dropped > 0 {
        let _ = write!(note, " … ({} more bytes)", err.dropped);
    }
    note
}

fn preview(bytes: &[u8]) -> String {
    const MAX: usize = 200;
    let text = String::from_utf8_lossy(&bytes[..bytes.len().min(MAX)]).into_owned();
    if bytes.len() > MAX {
        format!("{text}…")
    } else {
        text
    }
}

fn protocol_failure(message: String) -> ToolFailure {
    ToolFailure::ordinary(message).with_code("subprocess_protocol")
}

/// Reads the program's answer.
fn parse_response(
    name: &str,
    id: u64,
    max_stdout: usize,
    status: ExitStatus,
    out: &Captured,
    err: &Captured,
) -> Result<Value, ToolFailure> {
    let stderr = stderr_note(err);
    if out.overflowed {
        return Err(protocol_failure(format!(
            "subprocess tool `{name}` wrote more than {max_stdout} bytes to stdout{stderr}"
        )));
    }
    let text = out.bytes.trim_ascii();
    if text.is_empty() {
        let message = if status.success() {
            format!("subprocess tool `{name}` exited without a response on stdout{stderr}")
        } else {
            format!("subprocess tool `{name}` exited with {status}{stderr}")
        };
        return Err(ToolFailure::ordinary(message).with_code("subprocess_exit"));
    }
    let response: Value = serde_json::from_slice(text).map_err(|e| {
        protocol_failure(format!(
            "invalid JSON-RPC response from subprocess tool `{name}`: {e} (stdout: {}){stderr}",
            preview(text)
        ))
    })?;
    let not_rpc = |what: &str| {
        protocol_failure(format!(
            "invalid JSON-RPC response from subprocess tool `{name}`: {what} (stdout: {}){stderr}",
            preview(text)
        ))
    };
    if response.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return Err(not_rpc("`jsonrpc` is not \"2.0\""));
    }
    match response.get("id") {
        Some(got) if *got != json!(id) && !got.is_null() => {
            return Err(not_rpc(&format!("`id` is {got}, expected {id}")));
        }
        _ => {}
    }
    if let Some(error) = response.get("error") {
        return Err(tool_error(name, error));
    }
    match response.get("result") {
        Some(result) => Ok(result.clone()),
        None => Err(not_rpc("neither `result` nor `error`")),
    }
}

/// The program's JSON-RPC error as a failure.
fn tool_error(name: &str, error: &Value) -> ToolFailure {
    let message = error.get("message").and_then(Value::as_str).map_or_else(
        || format!("subprocess tool `{name}` failed: {error}"),
        str::to_owned,
    );
    let mut failure = match error.get("code").and_then(Value::as_i64) {
        Some(-32602) => ToolFailure::invalid_arguments(message),
        _ => ToolFailure::ordinary(message).with_code("subprocess_error"),
    };
    let data = error.get("data");
    if data
        .and_then(|d| d.get("classification"))
        .and_then(Value::as_str)
        == Some("terminal")
    {
        failure = failure.with_classification(Classification::Terminal);
    }
    if let Some(code) = data.and_then(|d| d.get("code")).and_then(Value::as_str) {
        failure = failure.with_code(code.to_owned());
    }
    if let Some(data) = data
        && failure.kind() == FailureKind::Tool
    {
        failure = failure.with_data(data.clone());
    }
    failure
}

impl ContextExecutor for SubprocessToolExecutor {
    fn dispatch<'a>(
        &'a self,
        tool: &'a str,
        params: &'a Value,
        ctx: ToolContext,
    ) -> BoxFuture<'a, Result<ToolExecution, ToolFailure>> {
        let Some(&i) = self.index.get(tool) else {
            return unserved(self.fallback.as_ref(), tool, params, ctx);
        };
        let entry = Arc::clone(&self.tools[i].1);
        Box::pin(async move {
            Box::pin(self.run(tool, &entry, params, &ctx))
                .await
                .map(ToolExecution::output_only)
        })
    }

    fn list_specs(&self) -> SpecList {
        Arc::clone(&self.specs)
    }
}
