//! Killing a child's whole process group: the child and everything it started. Shared by the
//! subprocess executor and the MCP client's stdio servers, both of which start their child as
//! the leader of a new group (`Command::process_group(0)`, see [`own_group`]).

use std::sync::atomic::{AtomicBool, Ordering};

/// Makes the command's child the leader of a new process group (Unix; elsewhere a no-op).
pub(crate) fn own_group(command: &mut tokio::process::Command) -> &mut tokio::process::Command {
    #[cfg(unix)]
    command.process_group(0);
    command
}

/// Kills a process group (a child started by [`own_group`] and everything it started) when
/// dropped, unless disarmed.
pub(crate) struct Group {
    pid: Option<u32>,
    armed: AtomicBool,
}

impl Group {
    /// The group led by the child `pid` (`Child::id`; `None` once it was reaped).
    pub(crate) fn new(pid: Option<u32>) -> Self {
        Self {
            pid,
            armed: AtomicBool::new(true),
        }
    }

    /// Sends SIGKILL to the whole group now (Unix; elsewhere a no-op).
    pub(crate) fn kill(&self) {
        #[cfg(unix)]
        if let Some(pid) = self.pid.and_then(|p| i32::try_from(p).ok()) {
            // ESRCH (the group is already gone) is the expected outcome after a clean exit.
            let _ = nix::sys::signal::killpg(
                nix::unistd::Pid::from_raw(pid),
                nix::sys::signal::Signal::SIGKILL,
            );
        }
    }

    /// Kills the group now and disarms the guard: once its members are reaped the group id
    /// may be reused, so a later drop must not signal it again.
    #[cfg_attr(not(feature = "mcp"), allow(dead_code))] // only the MCP client kills once
    pub(crate) fn kill_once(&self) {
        if self.armed.swap(false, Ordering::Relaxed) {
            self.kill();
        }
    }

    /// Leaves the group alone on drop.
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
    }
}
