//! Starting a child in a process group of its own that dies with the call or connection it
//! serves and with the host itself, however the host ends. Shared by the subprocess executor
//! (one group per call) and the MCP client's stdio servers (one group per server).
//!
//! # The supervisor
//!
//! The host kills a group itself (`killpg`, [`Group::kill`]) when a call ends, times out or is
//! dropped, when a connection is dropped and when the host unwinds. That needs the host to run
//! its destructors: after `std::process::exit`, a fatal signal (SIGTERM's default action,
//! SIGKILL) or an abort, a wrapper such as `sh -c`, `npx` or `uv run` and the server it
//! started would keep running. So every group also has a *supervisor*: `/bin/sh -c 'read -r
//! line; kill -s KILL 0'`, started first as the leader of the new group, with the child
//! joining that group (`Command::process_group(supervisor's pid)`, no `pre_exec`). Its stdin
//! is a pipe whose write end only the host holds. Whenever the host ends (by any path,
//! SIGKILL included) the kernel closes that end, the supervisor's `read` sees end of input,
//! and `kill 0` sends SIGKILL to its own process group: the child, everything the child
//! started there, and the supervisor itself. On a normal end the host kills the group (the
//! supervisor included) and drops the pipe.
//!
//! Why it is race-free:
//!
//! - *Group id reuse.* The supervisor signals its own group (`kill 0`), never a number it was
//!   told, so it cannot reach a group that is not its own. The host signals the group id that
//!   is the supervisor's pid, and it holds the supervisor's unreaped `Child` for as long as the
//!   [`Group`] lives: a pid that is not reaped (even a zombie's) is never reused, so neither is
//!   the group id. (Before the supervisor, the group was led by the child, and a kill after
//!   the child was reaped could in principle reach a new group with the recycled id.)
//! - *The group already gone.* `killpg` then fails with `ESRCH`, which is ignored; the
//!   supervisor was in the group, so it is gone too and needs no signal.
//! - *Who holds the pipe.* The host's end is close-on-exec: std creates the pipes of
//!   `Stdio::piped()` with `pipe2(O_CLOEXEC)` and only the child's end is `dup2`ed onto its
//!   stdin, so no other child of the host (another server, a sibling call, a process the
//!   user's own code starts) inherits it and keeps the supervisor waiting
//!   (`tests/process_orphans.rs` checks the flags in `/proc`).
//! - *The order.* The supervisor runs before the child exists, so there is no moment in which
//!   the child runs unwatched; if the child cannot be started, dropping the `Group` ends the
//!   supervisor.
//!
//! The cost is one more `fork`/`exec` of `/bin/sh` per group: with the ignored test
//! `spawn_cost` in `tests/process_orphans.rs` (sequential subprocess calls to `sh -c` answering
//! at once, 15 rounds of 300 calls, before and after interleaved, 2 shared cores) a call takes
//! 1.85 ms instead of 0.97 ms (the fastest rounds; a bare `sh -c :` takes 0.78 ms). Once per
//! MCP server that is nothing; per subprocess call it nearly doubles the cheapest call.
//!
//! # Limits
//!
//! - A process that leaves the group (`setsid`, `setpgid`: a daemonising server) is out of
//!   reach of both the host's kill and the supervisor's; it survives every path
//!   (`tests/process_orphans.rs`, `a_server_that_calls_setsid_escapes`).
//! - Killing the supervisor alone (by hand, the OOM killer) leaves the group to the host's own
//!   kills, as before the supervisor.
//! - Without `/bin/sh` (a distroless image) the child leads its own group unsupervised, as it
//!   did before: the host's kills still work, the exit paths that skip destructors do not.
//! - Elsewhere than Unix there are no process groups: only the child is killed on drop.

use std::io;
use std::sync::atomic::{AtomicBool, Ordering};

use tokio::process::{Child, Command};

/// What the supervisor runs: wait for the end of the host's pipe, then kill its own group.
/// The host never writes to the pipe, so `read` returns only at its end.
#[cfg(unix)]
const SUPERVISOR: &str = "read -r line; kill -s KILL 0";

/// Starts `command` in a new process group with a supervisor (see the module docs), and
/// returns the child with the [`Group`] that kills the group.
pub(crate) fn spawn(command: &mut Command) -> io::Result<(Child, Group)> {
    #[cfg(unix)]
    {
        let supervisor = supervise();
        let leader = match &supervisor {
            Some(supervisor) => supervisor.id().and_then(|pid| i32::try_from(pid).ok()),
            None => None,
        };
        // Joins the supervisor's group, or leads a new one when there is no supervisor.
        command.process_group(leader.unwrap_or(0));
        // An error drops `supervisor`: its pipe closes and it ends, with its group.
        let child = command.spawn()?;
        let pgid = leader.or_else(|| child.id().and_then(|pid| i32::try_from(pid).ok()));
        Ok((
            child,
            Group {
                pgid,
                supervisor,
                armed: AtomicBool::new(true),
            },
        ))
    }
    #[cfg(not(unix))]
    {
        Ok((
            command.spawn()?,
            Group {
                armed: AtomicBool::new(true),
            },
        ))
    }
}

/// Starts a supervisor as the leader of a new group, or `None` when `/bin/sh` cannot be
/// started (the caller then goes without, see the module docs' limits).
#[cfg(unix)]
fn supervise() -> Option<Child> {
    Command::new("/bin/sh")
        .args(["-c", SUPERVISOR])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        // Keeps no directory busy (an unmount of the host's working directory).
        .current_dir("/")
        .process_group(0)
        .spawn()
        .ok()
}

/// A process group started by [`spawn`]: killed when dropped unless disarmed, and by its
/// supervisor when the host ends.
pub(crate) struct Group {
    /// The group id: the supervisor's pid (the child's without a supervisor).
    #[cfg(unix)]
    pgid: Option<i32>,
    /// Never waited for, so never reaped while the group is ours: its pid, the group id,
    /// cannot be reused meanwhile. Its stdin is the host's end of the pipe: dropping it lets a
    /// supervisor still running end itself and the group. Dropped, tokio reaps it in the
    /// background.
    #[cfg(unix)]
    supervisor: Option<Child>,
    armed: AtomicBool,
}

impl Group {
    /// Sends SIGKILL to the whole group now (Unix; elsewhere a no-op).
    pub(crate) fn kill(&self) {
        #[cfg(unix)]
        if let Some(pgid) = self.pgid {
            // ESRCH (the group is already gone) is the expected outcome after a clean exit.
            let _ = nix::sys::signal::killpg(
                nix::unistd::Pid::from_raw(pgid),
                nix::sys::signal::Signal::SIGKILL,
            );
        }
    }

    /// Kills the group now and disarms the guard. With a supervisor a second kill would be
    /// harmless; without one, once the child is reaped the group id may be reused, so a later
    /// drop must not signal it again.
    #[cfg_attr(not(feature = "mcp"), allow(dead_code))] // only the MCP client kills once
    pub(crate) fn kill_once(&self) {
        if self.armed.swap(false, Ordering::Relaxed) {
            self.kill();
        }
    }

    /// Leaves the group alone on drop (a supervisor still running ends it anyway once its
    /// pipe closes: its group cannot have been reused).
    #[cfg_attr(not(feature = "subprocess"), allow(dead_code))] // the MCP client never disarms
    pub(crate) fn disarm(&self) {
        self.armed.store(false, Ordering::Relaxed);
    }
}

impl Drop for Group {
    fn drop(&mut self) {
        if *self.armed.get_mut() {
            self.kill();
        }
        // After the kill: closes the pipe (a supervisor still running kills the group itself)
        // and hands the supervisor to tokio to reap; its pid is free to be reused from then on.
        #[cfg(unix)]
        drop(self.supervisor.take());
    }
}
