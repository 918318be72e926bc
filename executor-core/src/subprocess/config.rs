//! `SubprocessTool`: the program to run for one tool, and its limits.

use std::ffi::OsString;
use std::time::Duration;

pub use crate::transport::timeouts::DEFAULT_TIMEOUT;

use crate::tool::ToolSpec;
use crate::transport::command::{CommandBuilder, CommandLine, command_builder};

/// How much stdout a response may take by default (1 MiB).
pub const DEFAULT_MAX_STDOUT: usize = 1024 * 1024;
/// How much stderr is kept for the error by default (4 KiB).
pub const DEFAULT_MAX_STDERR: usize = 4 * 1024;

/// One program served as a tool. The call's arguments never go on its command line: they are
/// the request line on its stdin.
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
    pub(super) command: CommandLine,
    pub(super) timeout: Duration,
    pub(super) spec: Option<ToolSpec>,
    pub(super) max_stdout: usize,
    pub(super) max_stderr: usize,
}

impl CommandBuilder for SubprocessTool {
    fn command_line(&mut self) -> Option<&mut CommandLine> {
        Some(&mut self.command)
    }
}

impl SubprocessTool {
    /// Runs `program` (looked up on `PATH`), with a 30 s time limit.
    #[must_use]
    pub fn new(program: impl Into<OsString>) -> Self {
        Self {
            command: CommandLine::new(program),
            timeout: DEFAULT_TIMEOUT,
            spec: None,
            max_stdout: DEFAULT_MAX_STDOUT,
            max_stderr: DEFAULT_MAX_STDERR,
        }
    }

    command_builder!("");

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
}
