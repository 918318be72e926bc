//! [`CatalogEditor`]: changing a served [`Catalog`]; each change reaches the clients as
//! `notifications/prompts/list_changed` or `notifications/resources/list_changed`.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use super::prompt::Prompts;
use super::resource::Resources;
use super::set::{Catalog, CatalogEntry, CatalogItem, Shared};

/// Adds and removes a [`Catalog`]'s prompts, resources and templates while it is served. Take
/// it with [`Catalog::editor`] before serving the catalog: from then on the server advertises
/// `listChanged` for prompts and resources, and tells its clients of every change (on
/// 2025-11-25 sessions, and on a 2026-07-28 `subscriptions/listen` stream that asked).
///
/// ```
/// use tool_executor::catalog::{Catalog, PromptMessage};
/// use tool_executor::prelude::*;
///
/// /// Greets someone.
/// #[prompt]
/// fn greet(name: String) -> PromptMessage {
///     PromptMessage::user(format!("Say hello to {name}."))
/// }
///
/// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
/// let catalog = Catalog::new();
/// let editor = catalog.editor();
/// let mut changes = catalog.prompt_changes().expect("an edited catalog can change");
/// editor.add::<greet>();
/// assert!(changes.changed().await);
/// assert_eq!(catalog.prompts()[0].name, "greet");
/// assert!(editor.remove_prompt("greet"));
/// assert!(catalog.prompts().is_empty());
/// # });
/// ```
#[derive(Clone)]
pub struct CatalogEditor {
    shared: Arc<Shared>,
}

impl std::fmt::Debug for CatalogEditor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("CatalogEditor(..)")
    }
}

impl Catalog {
    /// The editor of this catalog (and of its clones); from now on it can change.
    #[must_use]
    pub fn editor(&self) -> CatalogEditor {
        self.shared.editable.store(true, Ordering::Release);
        CatalogEditor {
            shared: Arc::clone(&self.shared),
        }
    }
}

impl CatalogEditor {
    /// Adds the `#[prompt]` or `#[resource]` `I`, replacing one with its name or address.
    pub fn add<I: CatalogItem>(&self) {
        self.add_entry(I::entry());
    }

    /// Adds `entry`, replacing one with its name or address.
    pub fn add_entry(&self, entry: CatalogEntry) {
        self.shared.insert(entry);
    }

    /// Adds the prompts of a `#[prompts]` value.
    pub fn add_prompts(&self, prompts: impl Prompts) {
        CatalogEntry::prompts(prompts).for_each(|e| self.shared.insert(e));
    }

    /// Adds the resources and templates of a `#[resources]` value.
    pub fn add_resources(&self, resources: impl Resources) {
        CatalogEntry::resources(resources).for_each(|e| self.shared.insert(e));
    }

    /// Removes prompt `name`; whether there was one.
    #[allow(clippy::must_use_candidate)] // removing is the point; the answer is extra
    pub fn remove_prompt(&self, name: &str) -> bool {
        self.shared.remove_prompt(name)
    }

    /// Removes the resource with URI `uri`, or the template written `uri`
    /// (`"notes://{id}"`); whether there was one.
    #[allow(clippy::must_use_candidate)] // removing is the point; the answer is extra
    pub fn remove_resource(&self, uri: &str) -> bool {
        self.shared.remove_resource(uri)
    }
}
