//! How an agent gets bound: [`serve`], [`AgentServer::bind`] and its siblings, and
//! `AgentServerBuilder` (other stores, a public URL, the server crate's builder within reach:
//! interceptors, a `Profile`, any store).

use std::fmt;

use a2a_protocol_server::serve::Server;
use a2a_protocol_server::{AgentExecutor, HttpPushSender, RequestHandlerBuilder};
use a2a_protocol_types::agent_card::AgentCard;
use tokio::net::ToSocketAddrs;

use super::card::Agent;
use super::limit::DEFAULT_MAX_A2A_REQUEST_BYTES;
use super::serve::{AgentServer, ServeError, WatchGuard, local_url};
#[cfg(any(feature = "a2a-postgres", feature = "a2a-sqlite"))]
use super::stores::Stores;

type Configure = Box<dyn FnOnce(RequestHandlerBuilder) -> RequestHandlerBuilder + Send>;

/// How an [`AgentServer`] is built: its stores, the public URL its card names, its request
/// bound, and a hook on the server crate's [`RequestHandlerBuilder`] for everything else.
///
/// ```no_run
/// use tool_executor::prelude::*;
/// use tool_executor::agent::{AgentServer, ToolAgent};
/// use tool_executor::agent::server::rate_limit::{RateLimitConfig, RateLimitInterceptor};
///
/// /// Adds two numbers.
/// #[tool]
/// fn add(a: i64, b: i64) -> i64 { a + b }
///
/// # async fn run() -> Result<(), Box<dyn std::error::Error>> {
/// let limit = RateLimitInterceptor::new(RateLimitConfig::default())?;
/// let server = AgentServer::builder()
///     .public_url("http://agents.example:8080")
///     .configure(move |handler| handler.with_interceptor(limit))
///     .bind("127.0.0.1:3000", ToolAgent::new(toolset![add]))
///     .await?;
/// server.run().await;
/// # Ok(())
/// # }
/// ```
#[must_use]
pub struct AgentServerBuilder {
    #[cfg(any(feature = "a2a-postgres", feature = "a2a-sqlite"))]
    stores: Option<Stores>,
    configure: Vec<Configure>,
    public_url: Option<String>,
    max_request_bytes: usize,
}

impl fmt::Debug for AgentServerBuilder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AgentServerBuilder")
            .field("public_url", &self.public_url)
            .field("max_request_bytes", &self.max_request_bytes)
            .field("configure", &self.configure.len())
            .finish_non_exhaustive()
    }
}

impl Default for AgentServerBuilder {
    fn default() -> Self {
        Self {
            #[cfg(any(feature = "a2a-postgres", feature = "a2a-sqlite"))]
            stores: None,
            configure: Vec::new(),
            public_url: None,
            max_request_bytes: DEFAULT_MAX_A2A_REQUEST_BYTES,
        }
    }
}

impl AgentServerBuilder {
    /// Keeps tasks, push configs and halts in `stores` (PostgreSQL for replicas, SQLite for
    /// one durable node) instead of the server crate's in-memory stores.
    #[cfg(any(feature = "a2a-postgres", feature = "a2a-sqlite"))]
    #[cfg_attr(
        docsrs,
        doc(cfg(any(feature = "a2a-postgres", feature = "a2a-sqlite")))
    )]
    pub fn stores(mut self, stores: Stores) -> Self {
        self.stores = Some(stores);
        self
    }

    /// Runs `configure` on the server crate's handler builder, after the card, the push
    /// sender and the [`stores`](Self::stores) are set, so it can add interceptors, apply a
    /// [`Profile`](a2a_protocol_server::profile::Profile), or replace any store. Hooks run in
    /// the order they were added. With PostgreSQL [`stores`](Self::stores) the replica
    /// watchdog fails orphaned tasks in their task store, so a hook that swaps in another task
    /// store belongs on a builder without `stores`.
    pub fn configure(
        mut self,
        configure: impl FnOnce(RequestHandlerBuilder) -> RequestHandlerBuilder + Send + 'static,
    ) -> Self {
        self.configure.push(Box::new(configure));
        self
    }

    /// The URL the card publishes (default `http://{bound address}`): a load balancer's, a
    /// proxy's, a public host name.
    pub fn public_url(mut self, url: impl Into<String>) -> Self {
        self.public_url = Some(url.into());
        self
    }

    /// Bounds one request body; see [`AgentServer::with_max_request_bytes`].
    pub fn max_request_bytes(mut self, bytes: usize) -> Self {
        self.max_request_bytes = bytes.max(1024);
        self
    }

    /// Binds `addr` for `agent`.
    ///
    /// # Errors
    /// [`ServeError`] when the address cannot be bound, the card is not valid A2A 1.0 or a
    /// hook's handler does not build.
    pub async fn bind(
        #[cfg_attr(not(feature = "oauth"), allow(unused_mut))] mut self,
        addr: impl ToSocketAddrs,
        agent: impl Agent,
    ) -> Result<AgentServer, ServeError> {
        let (server, url) = self.listen(addr).await?;
        let card = agent.card(&url);
        #[cfg(feature = "oauth")]
        if let Some(oauth) = agent.oauth() {
            let card = super::oauth::secure_card(card, &oauth);
            let check = oauth.clone();
            self.configure.push(Box::new(move |builder| {
                builder.with_interceptor(super::oauth::OAuthInterceptor(check))
            }));
            return Ok(self
                .build(server, url, agent, card)?
                .with_oauth_metadata(oauth));
        }
        self.build(server, url, agent, card)
    }

    /// Binds `addr` for an executor that does not describe itself, with the card `card` builds
    /// for the public URL.
    ///
    /// # Errors
    /// As [`bind`](Self::bind).
    pub async fn bind_executor(
        self,
        addr: impl ToSocketAddrs,
        executor: impl AgentExecutor,
        card: impl FnOnce(&str) -> AgentCard,
    ) -> Result<AgentServer, ServeError> {
        let (server, url) = self.listen(addr).await?;
        let card = card(&url);
        self.build(server, url, executor, card)
    }

    async fn listen(&self, addr: impl ToSocketAddrs) -> Result<(Server, String), ServeError> {
        let server = Server::bind(addr).await.map_err(ServeError::Bind)?;
        let url = match &self.public_url {
            Some(url) => url.clone(),
            None => local_url(&server)?,
        };
        Ok((server, url))
    }

    fn build(
        self,
        server: Server,
        url: String,
        executor: impl AgentExecutor,
        card: AgentCard,
    ) -> Result<AgentServer, ServeError> {
        let local_addr = server.local_addr().map_err(ServeError::Bind)?;
        let push = card.capabilities.push_notifications == Some(true);
        #[cfg(any(feature = "a2a-postgres", feature = "a2a-sqlite"))]
        let (mut builder, watch) = match self.stores {
            Some(stores) => stores.handler_builder(executor),
            None => (RequestHandlerBuilder::new(executor), WatchGuard::default()),
        };
        #[cfg(not(any(feature = "a2a-postgres", feature = "a2a-sqlite")))]
        let (mut builder, watch) = (RequestHandlerBuilder::new(executor), WatchGuard::default());
        builder = builder.with_agent_card(card);
        if push {
            builder = builder.with_push_sender(HttpPushSender::new());
        }
        for configure in self.configure {
            builder = configure(builder);
        }
        let handler = builder.build().map_err(ServeError::Handler)?;
        Ok(AgentServer::from_parts(
            server,
            handler,
            local_addr,
            url,
            self.max_request_bytes,
            watch,
        ))
    }
}

impl AgentServer {
    /// Binds `addr` for `agent`, whose card names `http://{bound address}` (an unspecified
    /// address such as `0.0.0.0` is published as loopback; use
    /// [`bind_with_url`](Self::bind_with_url) to publish the address clients should use).
    ///
    /// # Errors
    /// [`ServeError`] when the address cannot be bound or the card is not valid A2A 1.0.
    pub async fn bind(addr: impl ToSocketAddrs, agent: impl Agent) -> Result<Self, ServeError> {
        Self::builder().bind(addr, agent).await
    }

    /// Binds `addr` for `agent`, whose card names `public_url` (behind a proxy, or on a
    /// public host name).
    ///
    /// # Errors
    /// [`ServeError`] when the address cannot be bound or the card is not valid A2A 1.0.
    pub async fn bind_with_url(
        addr: impl ToSocketAddrs,
        public_url: impl Into<String>,
        agent: impl Agent,
    ) -> Result<Self, ServeError> {
        Self::builder()
            .public_url(public_url)
            .bind(addr, agent)
            .await
    }

    /// Binds `addr` for an executor that does not describe itself (one declared with
    /// [`agent_executor!`](crate::agent_executor)), with the card `card` builds for the bound
    /// URL.
    ///
    /// # Errors
    /// [`ServeError`] when the address cannot be bound or the card is not valid A2A 1.0.
    pub async fn bind_executor(
        addr: impl ToSocketAddrs,
        executor: impl AgentExecutor,
        card: impl FnOnce(&str) -> AgentCard,
    ) -> Result<Self, ServeError> {
        Self::builder().bind_executor(addr, executor, card).await
    }

    /// A builder for other stores (PostgreSQL, SQLite), a public URL, interceptors or a
    /// deployment profile.
    pub fn builder() -> AgentServerBuilder {
        AgentServerBuilder::default()
    }
}

/// Serves `agent` on `addr` until the process ends: JSON-RPC at `/`, HTTP+JSON (REST) under
/// `/`, and the agent card at `/.well-known/agent-card.json`, with the card's interfaces at
/// `http://{bound address}`. Use [`AgentServer`] to learn the bound port, publish another URL,
/// or stop.
///
/// ```no_run
/// use tool_executor::prelude::*;
/// use tool_executor::agent::{ToolAgent, serve};
///
/// /// Adds two numbers.
/// #[tool]
/// fn add(a: i64, b: i64) -> i64 { a + b }
///
/// #[tokio::main]
/// async fn main() -> Result<(), Box<dyn std::error::Error>> {
///     serve("127.0.0.1:3000", ToolAgent::new(toolset![add])).await?;
///     Ok(())
/// }
/// ```
///
/// # Errors
/// [`ServeError`] when the address cannot be bound or the card is not valid A2A 1.0.
pub async fn serve(addr: impl ToSocketAddrs, agent: impl Agent) -> Result<(), ServeError> {
    AgentServer::bind(addr, agent).await?.run().await;
    Ok(())
}
