//! What an [`McpServer`](super::McpServer) keeps beside its tools: the catalog, each
//! session's log level, and resource subscriptions; and the capabilities they add. The wire
//! is in `catalog.rs`.

use std::collections::HashMap;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};

use rmcp::model::ServerCapabilities;
use rmcp::service::{Peer, RoleServer};

use crate::catalog::Catalog;
use crate::tool::LogLevel;

/// The most sessions whose log level is kept (`logging/setLevel`); past it an earlier choice is
/// forgotten (that session falls back to no messages until it sets a level again).
pub(crate) const MAX_LOG_LEVELS: usize = 4096;

/// The most subscriptions kept across URIs and sessions; past it a subscription is refused.
pub(crate) const MAX_SUBSCRIPTIONS: usize = 16_384;

/// One session subscribed to a URI: its id (none on a connection without one) and its peer.
pub(crate) type Subscriber = (Option<Arc<str>>, Peer<RoleServer>);

/// What a server keeps for its catalog, log levels and subscriptions.
#[derive(Default)]
pub(crate) struct Offer {
    pub(crate) catalog: Option<Arc<Catalog>>,
    /// The level each session chose. Read on every call of a session once any session chose
    /// one (`any_level`), so a server whose clients never set a level takes no lock.
    pub(crate) levels: Mutex<HashMap<Arc<str>, LogLevel>>,
    pub(crate) any_level: AtomicBool,
    /// Per URI, the sessions subscribed and their peers.
    pub(crate) subscriptions: Mutex<HashMap<String, Vec<Subscriber>>>,
}

impl Offer {
    pub(crate) fn with_catalog(catalog: Catalog) -> Self {
        Self {
            catalog: Some(Arc::new(catalog)),
            ..Self::default()
        }
    }

    /// The same catalog, without the sessions' state (a server edited after it was shared).
    pub(crate) fn fresh(&self) -> Self {
        Self {
            catalog: self.catalog.clone(),
            ..Self::default()
        }
    }

    /// Adds what the catalog and logging serve to `capabilities`.
    pub(crate) fn capabilities(&self, capabilities: &mut ServerCapabilities) {
        capabilities.logging = Some(serde_json::Map::new());
        let Some(catalog) = &self.catalog else { return };
        capabilities.completions = Some(serde_json::Map::new());
        if catalog.has_prompts() {
            capabilities.prompts = Some(rmcp::model::PromptsCapability::default());
        }
        if catalog.has_resources() {
            let mut resources = rmcp::model::ResourcesCapability::default();
            resources.subscribe = Some(true);
            capabilities.resources = Some(resources);
        }
    }
}
