//! Telling a peer to stop: the request whose caller stopped waiting (timeout, cancellation,
//! the caller dropping the call) is cancelled on the peer (MCP `notifications/cancelled`, A2A
//! `CancelTask`).

use std::future::Future;

/// Spawns its cancellation when dropped while armed; a call that got its answer disarms it.
///
/// Nothing is sent when no tokio runtime is left to run the cancellation (the runtime is
/// shutting down: the peer's connection goes with it).
pub(crate) struct CancelOnDrop<F: Future<Output = ()> + Send + 'static> {
    cancel: Option<F>,
}

impl<F: Future<Output = ()> + Send + 'static> CancelOnDrop<F> {
    /// Sends `cancel` on drop.
    #[cfg_attr(not(feature = "mcp"), allow(dead_code))] // A2A learns its task id later
    pub(crate) const fn armed(cancel: F) -> Self {
        Self {
            cancel: Some(cancel),
        }
    }

    /// Sends nothing until [`arm`](Self::arm)ed (the peer has not named the work yet).
    #[cfg_attr(not(feature = "a2a-client"), allow(dead_code))] // MCP knows its id up front
    pub(crate) const fn disarmed() -> Self {
        Self { cancel: None }
    }

    /// Sends `cancel` on drop, instead of what was armed before.
    #[cfg_attr(not(feature = "a2a-client"), allow(dead_code))]
    pub(crate) fn arm(&mut self, cancel: F) {
        self.cancel = Some(cancel);
    }

    /// Sends nothing on drop: the work ended.
    pub(crate) fn disarm(&mut self) {
        self.cancel = None;
    }
}

impl<F: Future<Output = ()> + Send + 'static> Drop for CancelOnDrop<F> {
    fn drop(&mut self) {
        let Some(cancel) = self.cancel.take() else {
            return;
        };
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            runtime.spawn(cancel);
        }
    }
}
