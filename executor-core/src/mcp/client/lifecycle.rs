//! Opening a connection: which protocol lifecycle the client asks for, and the fallback from
//! 2026-07-28 (`server/discover`, per-request `_meta`, no session) to the 2025-11-25
//! `initialize` handshake.

use rmcp::model::ProtocolVersion;
use rmcp::service::{
    ClientInitializeError, ClientLifecycleMode, ClientServiceExt, RoleClient, RunningService,
};
use rmcp::transport::Transport;

use super::Relay;
use super::config::{Endpoint, McpProtocol};
#[cfg(feature = "mcp-http")]
use super::http;
use super::transport::{Intercept, KillGroup, spawn_stdio};

/// The newest version with `server/discover` this client speaks.
const MODERN: ProtocolVersion = ProtocolVersion::V_2026_07_28;

impl McpProtocol {
    fn mode(self) -> ClientLifecycleMode {
        match self {
            Self::Auto => ClientLifecycleMode::Auto {
                preferred_versions: vec![MODERN],
                legacy_version: Some(ProtocolVersion::LATEST_WITH_INITIALIZE),
            },
            Self::Initialize => ClientLifecycleMode::Initialize,
            Self::Discover => ClientLifecycleMode::Discover {
                preferred_versions: vec![MODERN],
            },
        }
    }
}

/// A live connection with the server and, for a stdio server, its process group.
pub(super) struct Connection {
    pub(super) service: RunningService<RoleClient, Relay>,
    /// Kills the group when the connection is dropped (the executor is dropped, or the
    /// server is restarted).
    pub(super) _group: Option<KillGroup>,
}

impl Connection {
    /// The protocol version the handshake settled on.
    pub(super) fn protocol_version(&self) -> String {
        self.service
            .peer()
            .peer_info()
            .map_or_else(String::new, |info| info.protocol_version.to_string())
    }
}

/// Starts or reaches the server and runs `protocol`'s lifecycle, falling back to
/// `initialize` as [`McpProtocol::Auto`] describes. The error is the message for
/// [`McpClientError`](super::McpClientError).
pub(super) async fn open(
    endpoint: &Endpoint,
    relay: &Relay,
    protocol: McpProtocol,
) -> Result<Connection, String> {
    match open_with(endpoint, relay, protocol.mode()).await? {
        Err(ClientInitializeError::NoCompatibleProtocolVersion {
            server_supported, ..
        }) if protocol == McpProtocol::Auto => {
            let legacy = open_with(endpoint, relay, ClientLifecycleMode::Initialize).await?;
            legacy.map_err(|e| {
                format!(
                    "the server lists {server_supported:?} in `server/discover`, and `initialize` failed: {e}"
                )
            })
        }
        other => other.map_err(|e| describe(&e)),
    }
}

/// A failed lifecycle in words for a person: a send failure as "what failed, when", without
/// rmcp's transport type name, with the server's challenge when a 401 or 403 refused it.
fn describe(error: &ClientInitializeError) -> String {
    let text = match error {
        ClientInitializeError::TransportError { error, context } => {
            let inner = error.error.to_string();
            format!("{inner} ({context})")
        }
        other => other.to_string(),
    };
    #[cfg(feature = "mcp-http")]
    if let Some(challenge) = error.auth_challenge() {
        return format!("{text}; the server's challenge: {challenge}");
    }
    text
}

/// One attempt: the outer error is a server that could not be started or reached, the inner
/// one the lifecycle's.
async fn open_with(
    endpoint: &Endpoint,
    relay: &Relay,
    mode: ClientLifecycleMode,
) -> Result<Result<Connection, ClientInitializeError>, String> {
    Ok(match endpoint {
        Endpoint::Stdio(command) => {
            let (pipes, group) = spawn_stdio(command)
                .map_err(|e| format!("could not start {}: {e}", command.program_name()))?;
            // A handshake that fails or is cut short drops `group`: the server is killed.
            start(relay, pipes, mode).await.map(|service| Connection {
                service,
                _group: Some(group),
            })
        }
        #[cfg(feature = "mcp-http")]
        Endpoint::Http {
            url,
            #[cfg(feature = "oauth")]
            tokens,
        } => {
            #[cfg(feature = "oauth")]
            if let Some(tokens) = tokens {
                let transport =
                    http::authorized(url, tokens.0.clone()).map_err(|e| e.to_string())?;
                return Ok(start(relay, transport, mode)
                    .await
                    .map(|service| Connection {
                        service,
                        _group: None,
                    }));
            }
            let transport = http::transport(url).map_err(|e| e.to_string())?;
            start(relay, transport, mode)
                .await
                .map(|service| Connection {
                    service,
                    _group: None,
                })
        }
    })
}

/// Runs `mode`'s lifecycle on `inner`, with progress routed as it is read.
async fn start<T>(
    relay: &Relay,
    inner: T,
    mode: ClientLifecycleMode,
) -> Result<RunningService<RoleClient, Relay>, ClientInitializeError>
where
    T: Transport<RoleClient> + 'static,
{
    let transport = Intercept {
        inner,
        relay: relay.clone(),
    };
    relay.clone().serve_with_lifecycle(transport, mode).await
}
