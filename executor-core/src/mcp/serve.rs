//! Running an [`McpServer`] on stdio, on any byte stream, or on streamable HTTP.

use std::io;
use std::sync::atomic::{AtomicU64, Ordering};

use rmcp::service::{ServerInitializeError, serve_server};
use tokio::io::{AsyncRead, AsyncWrite};

use super::server::McpServer;
use super::stdio::LineTransport;

impl McpServer {
    /// Serves one client on this process's stdin and stdout until it disconnects.
    ///
    /// # Errors
    /// When stdin or stdout fail, or the `initialize` handshake is refused.
    pub async fn serve_stdio(self) -> io::Result<()> {
        self.serve_io(tokio::io::stdin(), tokio::io::stdout()).await
    }

    /// Serves one client on a pair of byte streams (newline-delimited JSON-RPC) until the
    /// reader ends. Tests use it with `tokio::io::duplex`.
    ///
    /// # Errors
    /// When the streams fail or the `initialize` handshake is refused.
    pub async fn serve_io<R, W>(self, read: R, write: W) -> io::Result<()>
    where
        R: AsyncRead + Unpin + Send + 'static,
        W: AsyncWrite + Unpin + Send + 'static,
    {
        static CONNECTIONS: AtomicU64 = AtomicU64::new(0);
        let (max, pending) = (self.inner.max_request_bytes, self.inner.max_pending_output);
        let n = CONNECTIONS.fetch_add(1, Ordering::Relaxed) + 1;
        let server = self.for_session(format!("stdio-{}-{n}", std::process::id()));
        let legacy_tasks = self.inner.tasks.is_some();
        let transport = LineTransport::new(read, write, max, pending, legacy_tasks);
        match serve_server(server, transport).await {
            Ok(running) => {
                running.waiting().await.map_err(io::Error::other)?;
                Ok(())
            }
            // The client left before the handshake: nothing was being served.
            Err(ServerInitializeError::ConnectionClosed(_)) => Ok(()),
            Err(e) => Err(io::Error::other(e)),
        }
    }
}

#[cfg(feature = "mcp-http")]
mod http {
    use std::io;
    use std::net::SocketAddr;
    use std::sync::Arc;

    use hyper_util::rt::TokioIo;
    use hyper_util::service::TowerToHyperService;
    use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
    use tokio::net::{TcpListener, TcpStream};
    use tokio_util::sync::CancellationToken;

    use super::McpServer;
    use crate::mcp::sessions::{Gate, GateLimits};

    #[cfg_attr(docsrs, doc(cfg(feature = "mcp-http")))]
    impl McpServer {
        /// Serves streamable HTTP on `addr` (every path; clients usually use `/mcp`) until the
        /// process ends. Only loopback `Host` headers are accepted unless
        /// [`with_allowed_hosts`](Self::with_allowed_hosts) says otherwise.
        ///
        /// # Errors
        /// When the address cannot be bound.
        pub async fn serve_http(self, addr: SocketAddr) -> io::Result<()> {
            let listener = TcpListener::bind(addr).await?;
            self.serve_http_on(listener, CancellationToken::new()).await
        }

        /// Serves streamable HTTP on a bound listener until `shutdown` fires. A failed
        /// `accept` (a client that hung up, too many open files) is retried after a pause
        /// rather than ending the server.
        ///
        /// # Errors
        /// None today; the `Result` leaves room for listener setup that can fail.
        pub async fn serve_http_on(
            self,
            listener: TcpListener,
            shutdown: CancellationToken,
        ) -> io::Result<()> {
            let mut config = StreamableHttpServerConfig::default()
                .with_cancellation_token(shutdown.child_token())
                .with_max_request_body_bytes(self.inner.max_request_bytes);
            if let Some(hosts) = &self.inner.allowed_hosts {
                config = config.with_allowed_hosts(hosts.clone());
            }
            if self.inner.stateless_http {
                config = stateless(config);
            }
            let limits = &self.inner.http_limits;
            config = config
                .with_allowed_origins(limits.allowed_origins.clone())
                .enforce_origin_validation();
            let gate = GateLimits {
                max_sessions: (!self.inner.stateless_http).then_some(limits.max_sessions),
                idle_timeout: limits.idle_timeout,
                max_in_flight: limits.max_in_flight,
                max_body: self.inner.max_request_bytes,
                #[cfg(feature = "oauth")]
                guard: crate::mcp::oauth::Guard::of(&self),
                legacy_tasks: self.inner.tasks.is_some(),
            };
            let sessions = self.session_manager();
            let server = self;
            let service = StreamableHttpService::new(
                move || Ok(server.clone()),
                Arc::clone(&sessions),
                config,
            );
            let service = Gate::new(TowerToHyperService::new(service), sessions, &gate);
            loop {
                let accepted = tokio::select! {
                    accepted = accept(&listener) => accepted,
                    () = shutdown.cancelled() => return Ok(()),
                };
                let Ok(stream) = accepted else {
                    tokio::time::sleep(std::time::Duration::from_millis(50)).await;
                    continue;
                };
                let service = service.clone();
                let shutdown = shutdown.clone();
                tokio::spawn(async move {
                    let connection = hyper::server::conn::http1::Builder::new()
                        .serve_connection(TokioIo::new(stream), service);
                    tokio::select! {
                        // A broken connection concerns only its client.
                        _ = connection => {}
                        () = shutdown.cancelled() => {}
                    }
                });
            }
        }
    }

    /// Accepts one connection with Nagle's algorithm off. rmcp answers a POST in two writes
    /// (the headers with the SSE priming event, then the reply); with Nagle on, the second
    /// waits for the client's delayed ACK, about 40 ms on Linux, on every call (issue 13).
    async fn accept(listener: &TcpListener) -> io::Result<TcpStream> {
        let (stream, _) = listener.accept().await?;
        // Fails only on a socket that is already dead, which the connection will report.
        let _ = stream.set_nodelay(true);
        Ok(stream)
    }

    /// rmcp's stateless mode: every POST is served on its own (no `initialize` kept, no
    /// `Mcp-Session-Id`, no GET stream, no DELETE), a plain answer is `application/json` and
    /// an answer with progress before it an SSE stream, and a response the client stops
    /// reading cancels the request (so the tool's future is dropped).
    fn stateless(config: StreamableHttpServerConfig) -> StreamableHttpServerConfig {
        config
            .with_legacy_session_mode(false)
            .with_json_response(true)
    }

    #[cfg(test)]
    mod tests {
        use tokio::net::{TcpListener, TcpStream};

        #[tokio::test]
        async fn accepted_sockets_do_not_wait_for_delayed_acks() {
            let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
            let addr = listener.local_addr().unwrap();
            let (accepted, client) =
                tokio::join!(super::accept(&listener), TcpStream::connect(addr));
            assert!(
                !client.unwrap().nodelay().unwrap(),
                "Nagle is on by default"
            );
            assert!(accepted.unwrap().nodelay().unwrap());
        }
    }
}
