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
//! # One supervisor per subprocess executor
//!
//! A supervisor of its own costs a group one more `fork`/`exec` of `/bin/sh`. Measured with
//! the ignored test `spawn_cost` in `tests/process_orphans.rs` (sequential subprocess calls to
//! `sh -c` answering at once, the builds interleaved on 2 shared cores): the fastest rounds
//! went from 0.97 ms to 1.85 ms per call (a bare `sh -c :` takes 0.78 ms), and the CPU time of
//! the run from 1.75 s to 2.6 s. Once per MCP server that is nothing, so stdio servers keep
//! the race-free supervisor above; per subprocess call it nearly doubles the cheapest call.
//!
//! So on Linux a [`SharedSupervisor`], one per `SubprocessToolExecutor` (and its clones),
//! watches every call's group: the call's child leads its own group, as before, and the host
//! writes `+ PGID START` to the supervisor's pipe after starting it and `- PGID` when the
//! call's [`Group`] drops. At the end of the pipe the supervisor kills each group still
//! registered, but only if `/proc/PGID/stat` still shows the registered leader (the same
//! group and start time): a leader that was reaped means the call had ended (and the host
//! had killed its group), and its id may belong to someone else by now. With it the same
//! measurement gives the same time and CPU as before the change (1.9 ms median per call, 1.78
//! s CPU against 1.75 s, under load), since a call only writes two short lines.
//!
//! What the shared supervisor gives up against one per group, each a window of a few
//! instructions on the host's side:
//!
//! - the host dying between starting the child and registering it leaves that call
//!   unwatched;
//! - the host dying between reaping a finished call's leader and killing its group
//!   (`transport.rs` does one right after the other) leaves whatever the call left behind;
//! - after the host is gone, a registered leader that exits, is reaped by its new parent and
//!   whose pid is reused as a group id before the supervisor's check and kill would be killed:
//!   that needs the pid counter to wrap around within that moment.
//!
//! Elsewhere than Linux (no `/proc` to check the leader by) every group has its own supervisor.
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
#[cfg(target_os = "linux")]
use std::io::Write;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
#[cfg(target_os = "linux")]
use std::sync::{Mutex, PoisonError};

use tokio::process::{Child, Command};

/// What the supervisor runs: wait for the end of the host's pipe, then kill its own group.
/// The host never writes to the pipe, so `read` returns only at its end.
#[cfg(unix)]
const SUPERVISOR: &str = "read -r line; kill -s KILL 0";

/// What a shared supervisor runs: keep the registered groups (`+ PGID START` adds one, `- PGID`
/// forgets it) until the end of the host's pipe, then kill each one whose leader is still the
/// process that was registered (`/proc/PGID/stat`: the same group and start time).
#[cfg(target_os = "linux")]
const SHARED_SUPERVISOR: &str = r#"groups=
while read -r op g t; do
    case $op in
    +) groups="$groups $g:$t" ;;
    -) kept=; for e in $groups; do [ "${e%%:*}" = "$g" ] || kept="$kept $e"; done; groups=$kept ;;
    esac
done
for e in $groups; do
    g=${e%%:*}
    { read -r stat < "/proc/$g/stat"; } 2>/dev/null || continue
    set -- ${stat##*") "}
    [ "$3" = "$g" ] && [ "${20}" = "${e#*:}" ] && kill -s KILL -- "-$g"
done"#;

/// Starts `command` in a new process group with a supervisor, its own or `shared` (see the
/// module docs), and returns the child with the [`Group`] that kills the group.
pub(crate) fn spawn(
    command: &mut Command,
    shared: Option<&Arc<SharedSupervisor>>,
) -> io::Result<(Child, Group)> {
    #[cfg(target_os = "linux")]
    if let Some(shared) = shared {
        return spawn_shared(command, shared);
    }
    #[cfg(not(target_os = "linux"))]
    let _ = shared;
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
        Ok((child, Group::new(pgid, supervisor)))
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

/// [`spawn`] with a shared supervisor: the child leads its group, registered with `shared`
/// (with its start time, which the supervisor checks before killing) until the group drops.
#[cfg(target_os = "linux")]
fn spawn_shared(
    command: &mut Command,
    shared: &Arc<SharedSupervisor>,
) -> io::Result<(Child, Group)> {
    command.process_group(0);
    let child = command.spawn()?;
    let pgid = child.id().and_then(|pid| i32::try_from(pid).ok());
    let mut group = Group::new(pgid, None);
    if let Some(pgid) = pgid
        && let Some(start) = start_time(pgid)
        && shared.register(pgid, &start)
    {
        group.registered = Some(Arc::clone(shared));
    }
    Ok((child, group))
}

/// The start time of process `pid` (field 22 of `/proc/<pid>/stat`, clock ticks since boot):
/// with the pid, what tells the process from a later one that reuses its pid.
#[cfg(target_os = "linux")]
fn start_time(pid: i32) -> Option<String> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // `pid (comm) state …`: comm may hold spaces and parentheses, so count after the last `)`.
    let (_, rest) = stat.rsplit_once(')')?;
    rest.split_whitespace().nth(19).map(str::to_owned)
}

/// One supervisor for many groups (every call of a subprocess executor), so a call does not
/// pay for a process of its own (see the module docs). Started at the first registration and
/// again if it died; the groups are registered and unregistered as lines on its stdin.
#[derive(Default)]
pub(crate) struct SharedSupervisor {
    #[cfg(target_os = "linux")]
    running: Mutex<Option<Registry>>,
}

/// A running shared supervisor: the process (never waited for, reaped by tokio once dropped)
/// and the host's end of its stdin.
#[cfg(target_os = "linux")]
struct Registry {
    _process: Child,
    pipe: std::fs::File,
}

#[cfg(target_os = "linux")]
impl SharedSupervisor {
    /// Asks the supervisor to kill group `pgid`, led by the process started at `start`, if the
    /// host ends while it is registered. False when no supervisor could be started.
    fn register(&self, pgid: i32, start: &str) -> bool {
        let line = format!("+ {pgid} {start}\n");
        let mut running = self.running.lock().unwrap_or_else(PoisonError::into_inner);
        for _ in 0..2 {
            if running.is_none() {
                *running = Registry::start();
            }
            let Some(registry) = running.as_mut() else {
                return false;
            };
            // A small write to a pipe its reader keeps empty: it does not block. It fails
            // only when the supervisor is gone (killed by hand): a new one is started.
            if registry.pipe.write_all(line.as_bytes()).is_ok() {
                return true;
            }
            *running = None;
        }
        false
    }

    /// Forgets group `pgid`: its call is over.
    fn unregister(&self, pgid: i32) {
        let mut running = self.running.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(registry) = running.as_mut() {
            // A supervisor that is gone holds nothing to forget.
            let _ = registry.pipe.write_all(format!("- {pgid}\n").as_bytes());
        }
    }
}

#[cfg(target_os = "linux")]
impl Registry {
    fn start() -> Option<Self> {
        let mut process = Command::new("/bin/sh")
            .args(["-c", SHARED_SUPERVISOR])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .current_dir("/")
            .process_group(0)
            .spawn()
            .ok()?;
        // Blocking (tokio turns it back), close-on-exec (std created it so).
        let pipe = std::fs::File::from(process.stdin.take()?.into_owned_fd().ok()?);
        Some(Self {
            _process: process,
            pipe,
        })
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
    /// The shared supervisor the group is registered with, if any.
    #[cfg(target_os = "linux")]
    registered: Option<Arc<SharedSupervisor>>,
    armed: AtomicBool,
}

impl Group {
    #[cfg(unix)]
    fn new(pgid: Option<i32>, supervisor: Option<Child>) -> Self {
        Self {
            pgid,
            supervisor,
            #[cfg(target_os = "linux")]
            registered: None,
            armed: AtomicBool::new(true),
        }
    }

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
        #[cfg(target_os = "linux")]
        if let (Some(shared), Some(pgid)) = (self.registered.take(), self.pgid) {
            shared.unregister(pgid);
        }
        // After the kill: closes the pipe (a supervisor still running kills the group itself)
        // and hands the supervisor to tokio to reap; its pid is free to be reused from then on.
        #[cfg(unix)]
        drop(self.supervisor.take());
    }
}
