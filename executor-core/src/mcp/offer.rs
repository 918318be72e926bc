//! What an [`McpServer`](super::McpServer) keeps beside its tools: the catalog, each
//! session's log level, and resource subscriptions; and the capabilities they add. The wire
//! is in `catalog.rs`.

use std::collections::HashMap;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};

use rmcp::model::{
    CacheScope, ListPromptsResult, ListResourceTemplatesResult, ListResourcesResult,
    ListToolsResult, ServerCapabilities,
};
use rmcp::service::{Peer, RoleServer};
use tokio::sync::broadcast;

use crate::catalog::Catalog;
use crate::tool::LogLevel;

/// The most sessions whose log level is kept (`logging/setLevel`); past it an earlier choice is
/// forgotten (that session falls back to no messages until it sets a level again).
pub(crate) const MAX_LOG_LEVELS: usize = 4096;

/// The most subscriptions kept across URIs and sessions; past it a subscription is refused.
pub(crate) const MAX_SUBSCRIPTIONS: usize = 16_384;

/// One session subscribed to a URI: its id (none on a connection without one) and its peer.
pub(crate) type Subscriber = (Option<Arc<str>>, Peer<RoleServer>);

/// How many resource updates a 2026-07-28 listener may be behind before it is told that every
/// resource it follows was updated.
const UPDATES_CAPACITY: usize = 256;

/// What a server keeps for its catalog, log levels and subscriptions.
pub(crate) struct Offer {
    pub(crate) catalog: Option<Arc<Catalog>>,
    /// The level each session chose. Read on every call of a session once any session chose
    /// one (`any_level`), so a server whose clients never set a level takes no lock.
    pub(crate) levels: Mutex<HashMap<Arc<str>, LogLevel>>,
    pub(crate) any_level: AtomicBool,
    /// `ttlMs` and `cacheScope` on list results (`McpServer::with_list_ttl`).
    pub(crate) list_cache: Option<(u64, CacheScope)>,
    /// Per URI, the sessions subscribed and their peers.
    pub(crate) subscriptions: Mutex<HashMap<String, Vec<Subscriber>>>,
    /// Each `notify_resource_updated` URI, for the 2026-07-28 `subscriptions/listen` streams.
    pub(crate) updates: broadcast::Sender<Arc<str>>,
}

impl Default for Offer {
    fn default() -> Self {
        Self {
            catalog: None,
            levels: Mutex::default(),
            any_level: AtomicBool::default(),
            list_cache: None,
            subscriptions: Mutex::default(),
            updates: broadcast::Sender::new(UPDATES_CAPACITY),
        }
    }
}

impl Offer {
    /// These settings with `catalog`.
    pub(crate) fn with_catalog(&self, catalog: Catalog) -> Self {
        Self {
            catalog: Some(Arc::new(catalog)),
            ..self.fresh()
        }
    }

    /// The same catalog and settings, without the sessions' state (a server edited after it
    /// was shared).
    pub(crate) fn fresh(&self) -> Self {
        Self {
            catalog: self.catalog.clone(),
            list_cache: self.list_cache,
            ..Self::default()
        }
    }

    /// Marks a list result with the server's `ttlMs` and `cacheScope`, when it set them.
    pub(crate) fn cache<T: ListResult>(&self, mut result: T) -> T {
        if let Some((ttl, scope)) = self.list_cache {
            result.set_cache(ttl, scope);
        }
        result
    }

    /// Adds what the catalog and logging serve to `capabilities`.
    pub(crate) fn capabilities(&self, capabilities: &mut ServerCapabilities) {
        capabilities.logging = Some(serde_json::Map::new());
        let Some(catalog) = &self.catalog else { return };
        capabilities.completions = Some(serde_json::Map::new());
        // `listChanged` only when the catalog can change (an editor was taken); such a
        // catalog offers both kinds, since either may be added later.
        let changes = catalog.can_change();
        let list_changed = changes.then_some(true);
        if catalog.has_prompts() || changes {
            let mut prompts = rmcp::model::PromptsCapability::default();
            prompts.list_changed = list_changed;
            capabilities.prompts = Some(prompts);
        }
        if catalog.has_resources() || changes {
            let mut resources = rmcp::model::ResourcesCapability::default();
            resources.subscribe = Some(true);
            resources.list_changed = list_changed;
            capabilities.resources = Some(resources);
        }
    }
}

/// The list results that carry `ttlMs` and `cacheScope` (SEP-2549).
pub(crate) trait ListResult {
    fn set_cache(&mut self, ttl_ms: u64, scope: CacheScope);
}

macro_rules! list_result {
    ($($t:ty),*) => {$(
        impl ListResult for $t {
            fn set_cache(&mut self, ttl_ms: u64, scope: CacheScope) {
                self.ttl_ms = Some(ttl_ms);
                self.cache_scope = Some(scope);
            }
        }
    )*};
}
list_result!(
    ListToolsResult,
    ListPromptsResult,
    ListResourcesResult,
    ListResourceTemplatesResult
);
