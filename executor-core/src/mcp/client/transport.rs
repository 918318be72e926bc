//! The client's transports: a stdio server started in a process group of its own and
//! watched, and the wrapper every transport goes through (progress routing).

use std::process::Stdio;
use std::sync::Arc;

use rmcp::model::{
    ClientJsonRpcMessage, JsonRpcNotification, ServerJsonRpcMessage, ServerNotification,
};
use rmcp::service::RoleClient;
use rmcp::transport::Transport;
use rmcp::transport::async_rw::AsyncRwTransport;
use tokio::process::{ChildStdin, ChildStdout};

use super::Relay;
use crate::transport::command::CommandLine;
use crate::transport::process_group::Group;

/// The stdio server's side of the connection: its pipes, as rmcp's line transport.
pub(super) type StdioTransport = AsyncRwTransport<RoleClient, ChildStdout, ChildStdin>;

/// Kills a stdio server's process group when dropped (the executor is dropped, the server is
/// restarted, the handshake timed out), whoever else holds the group.
pub(super) struct KillGroup(Arc<Group>);

impl Drop for KillGroup {
    fn drop(&mut self) {
        self.0.kill_once();
    }
}

/// Starts a stdio server as the leader of a new process group, so a wrapper (`sh -c`, `npx`,
/// `uv run`) and everything it starts can be killed together. A task waits for the server:
/// once it exits, whatever it left running (which may hold its pipes open) is killed too.
pub(super) fn spawn_stdio(command: &CommandLine) -> std::io::Result<(StdioTransport, KillGroup)> {
    // Should the watching task never run (the runtime is shutting down), dropping the child
    // (killed on drop) still kills the server.
    // The group also dies with the host, however it ends (`transport::process_group`).
    let (mut child, group) = command.spawn(Stdio::inherit(), None)?;
    let group = Arc::new(group);
    let (Some(stdout), Some(stdin)) = (child.stdout.take(), child.stdin.take()) else {
        group.kill_once();
        return Err(std::io::Error::other("the server's pipes were not opened"));
    };
    let watched = Arc::clone(&group);
    tokio::spawn(async move {
        // Reaps the server, then kills the rest of its group.
        let _ = child.wait().await;
        watched.kill_once();
    });
    Ok((
        AsyncRwTransport::new_client(stdout, stdin),
        KillGroup(group),
    ))
}

/// A client transport that routes progress notifications as they are read, in order.
///
/// rmcp hands notifications to `ClientHandler::on_progress` in spawned tasks, so the last
/// progress can arrive after the call's response. Reading them here, before the response is
/// read, keeps every progress report ahead of the result.
pub(super) struct Intercept<T> {
    pub(super) inner: T,
    pub(super) relay: Relay,
}

impl<T: Transport<RoleClient>> Transport<RoleClient> for Intercept<T> {
    type Error = T::Error;

    fn send(
        &mut self,
        item: ClientJsonRpcMessage,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        self.inner.send(item)
    }

    async fn receive(&mut self) -> Option<ServerJsonRpcMessage> {
        let message = self.inner.receive().await?;
        if let ServerJsonRpcMessage::Notification(JsonRpcNotification {
            notification: ServerNotification::ProgressNotification(progress),
            ..
        }) = &message
        {
            self.relay.route(&progress.params);
        }
        Some(message)
    }

    fn close(&mut self) -> impl Future<Output = Result<(), Self::Error>> + Send {
        self.inner.close()
    }
}
