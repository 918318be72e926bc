//! Telling clients that a listing changed or a resource was updated: on a 2025-11-25 session
//! (`relay`, from `initialized` until the client is gone) and on a 2026-07-28
//! `subscriptions/listen` stream ([`Listen`], taken when the request arrives, so a change made
//! right after the acknowledgment still reaches it).

use std::sync::Arc;

use rmcp::model::SubscriptionFilter;
use rmcp::service::{Peer, RoleServer, SubscriptionContext};
use tokio::sync::broadcast;

use super::offer::Offer;
use crate::tool::{ListChanges, ToolExecutor};

/// How often a session's relay checks whether its client is gone, when no change comes to
/// tell it.
const RELAY_CHECK: std::time::Duration = std::time::Duration::from_secs(10);

/// What a server's listings and resources can tell one listener, subscribed at once.
pub(crate) struct Listen {
    tools: Option<ListChanges>,
    prompts: Option<ListChanges>,
    resources: Option<ListChanges>,
    updates: Option<broadcast::Receiver<Arc<str>>>,
}

/// A change a listener is told of.
enum Change {
    Tools,
    Prompts,
    Resources,
    /// `notifications/resources/updated` for these URIs.
    Updated(Vec<Arc<str>>),
}

impl Listen {
    /// Subscribes to everything a server can change: its executor's listing, its catalog's
    /// prompts and resources, and (with `updates`) the resources it says were updated.
    pub(crate) fn take(executor: &dyn ToolExecutor, offer: &Offer, updates: bool) -> Self {
        let catalog = offer.catalog.as_deref();
        Self {
            tools: executor.list_changes(),
            prompts: catalog.and_then(crate::catalog::Catalog::prompt_changes),
            resources: catalog.and_then(crate::catalog::Catalog::resource_changes),
            updates: updates.then(|| offer.updates.subscribe()),
        }
    }

    /// Whether nothing can ever be told.
    pub(crate) fn is_empty(&self) -> bool {
        self.tools.is_none()
            && self.prompts.is_none()
            && self.resources.is_none()
            && self.updates.is_none()
    }

    /// What a `subscriptions/listen` may have of `requested`: the listings that can change,
    /// and the requested URIs the catalog serves. `None` when there is nothing to listen to.
    pub(crate) fn accepted(
        &self,
        offer: &Offer,
        requested: &SubscriptionFilter,
    ) -> Option<SubscriptionFilter> {
        let mut accepted = SubscriptionFilter::default();
        accepted.tools_list_changed = self.tools.is_some().then_some(true);
        accepted.prompts_list_changed = self.prompts.is_some().then_some(true);
        accepted.resources_list_changed = self.resources.is_some().then_some(true);
        if let Some(catalog) = offer.catalog.as_deref() {
            accepted.resource_subscriptions =
                requested.resource_subscriptions.as_ref().map(|uris| {
                    uris.iter()
                        .filter(|uri| catalog.serves(uri))
                        .cloned()
                        .collect()
                });
        }
        (accepted != SubscriptionFilter::default()).then_some(accepted)
    }

    /// Only what `accepted` asks for.
    fn keep(mut self, accepted: &SubscriptionFilter) -> Self {
        let on = |flag: Option<bool>| flag == Some(true);
        if !on(accepted.tools_list_changed) {
            self.tools = None;
        }
        if !on(accepted.prompts_list_changed) {
            self.prompts = None;
        }
        if !on(accepted.resources_list_changed) {
            self.resources = None;
        }
        if accepted
            .resource_subscriptions
            .as_ref()
            .is_none_or(Vec::is_empty)
        {
            self.updates = None;
        }
        self
    }

    /// The next change; `None` once nothing can change any more.
    async fn next(&mut self) -> Option<Change> {
        loop {
            if self.is_empty() {
                return None;
            }
            tokio::select! {
                more = changed(self.tools.as_mut()) => {
                    if more { return Some(Change::Tools) }
                    self.tools = None;
                }
                more = changed(self.prompts.as_mut()) => {
                    if more { return Some(Change::Prompts) }
                    self.prompts = None;
                }
                more = changed(self.resources.as_mut()) => {
                    if more { return Some(Change::Resources) }
                    self.resources = None;
                }
                update = updated(self.updates.as_mut()) => match update {
                    Ok(uri) => return Some(Change::Updated(vec![uri])),
                    // Updates were dropped while this listener was behind: every URI it
                    // follows may have changed.
                    Err(broadcast::error::RecvError::Lagged(_)) => {
                        return Some(Change::Updated(Vec::new()));
                    }
                    Err(broadcast::error::RecvError::Closed) => self.updates = None,
                },
            }
        }
    }
}

async fn changed(changes: Option<&mut ListChanges>) -> bool {
    match changes {
        Some(changes) => changes.changed().await,
        None => std::future::pending().await,
    }
}

async fn updated(
    updates: Option<&mut broadcast::Receiver<Arc<str>>>,
) -> Result<Arc<str>, broadcast::error::RecvError> {
    match updates {
        Some(updates) => updates.recv().await,
        None => std::future::pending().await,
    }
}

/// Sends a 2025-11-25 session's `notifications/*/list_changed` at each change, until the
/// client is gone or nothing can change any more (resource updates reach such a session
/// through `resources/subscribe`).
pub(crate) async fn relay(mut listen: Listen, peer: Peer<RoleServer>) {
    listen.updates = None;
    loop {
        tokio::select! {
            change = listen.next() => {
                let sent = match change {
                    None => return,
                    Some(Change::Tools) => peer.notify_tool_list_changed().await,
                    Some(Change::Prompts) => peer.notify_prompt_list_changed().await,
                    Some(Change::Resources) => peer.notify_resource_list_changed().await,
                    Some(Change::Updated(_)) => Ok(()),
                };
                if sent.is_err() {
                    return;
                }
            }
            () = tokio::time::sleep(RELAY_CHECK) => {
                if peer.is_transport_closed() {
                    return;
                }
            }
        }
    }
}

/// Runs one 2026-07-28 `subscriptions/listen` stream: each change it accepted, tagged with its
/// subscription id by rmcp's sink, until the client cancels it.
pub(crate) async fn run(listen: Listen, context: &SubscriptionContext) {
    let accepted = context.accepted();
    let mut listen = listen.keep(accepted);
    let followed: Vec<String> = accepted.resource_subscriptions.clone().unwrap_or_default();
    loop {
        let change = tokio::select! {
            () = context.cancelled() => return,
            change = listen.next() => change,
        };
        let sink = context.sink();
        let sent = match change {
            None => {
                context.cancelled().await;
                return;
            }
            Some(Change::Tools) => sink.notify_tool_list_changed().await,
            Some(Change::Prompts) => sink.notify_prompt_list_changed().await,
            Some(Change::Resources) => sink.notify_resource_list_changed().await,
            Some(Change::Updated(uris)) if uris.is_empty() => {
                let mut sent = Ok(());
                for uri in &followed {
                    sent = sent.and(sink.notify_resource_updated(uri.as_str()).await);
                }
                sent
            }
            Some(Change::Updated(uris)) => {
                let mut sent = Ok(());
                for uri in uris.iter().filter(|u| followed.iter().any(|f| f == &***u)) {
                    sent = sent.and(sink.notify_resource_updated(&**uri).await);
                }
                sent
            }
        };
        if sent.is_err() {
            return;
        }
    }
}
