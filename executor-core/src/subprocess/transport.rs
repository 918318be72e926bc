//! Running one call: the process started in its own group, the request line written, stdout
//! and stderr read within their bounds, and the whole group killed however the call ends.

use std::process::Stdio;
use std::sync::atomic::Ordering;

use serde_json::{Value, json};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWriteExt};

use super::outcome::{Captured, parse_response};
use super::{SubprocessTool, SubprocessToolExecutor};
use crate::failure::ToolFailure;
use crate::tool::ToolContext;

impl SubprocessToolExecutor {
    /// Runs `tool` once for the call `name(params)` and reads its answer.
    pub(super) async fn run(
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
        let (mut child, group) = tool
            .command
            .spawn(Stdio::piped(), Some(&self.supervisor))
            .map_err(|e| {
                ToolFailure::ordinary(format!(
                    "subprocess tool `{name}`: could not start {}: {e}",
                    tool.command.program_name()
                ))
                .with_code("subprocess_spawn")
            })?;
        // From here on, leaving this function by any path (timeout, cancellation, the caller
        // dropping the call) kills the whole group; the host ending kills it too.
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
