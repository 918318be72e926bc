//! [`Catalog`]: the prompts, resources and resource templates a server offers beside its
//! tools, looked up by name and URI. Its entries sit behind one lock shared by its clones and
//! its [`CatalogEditor`](super::CatalogEditor) (`edit.rs`), so a served catalog can change.

use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, PoisonError, RwLock};

use serde_json::{Map, Value};
use tokio::sync::watch;

use super::prompt::{FnPrompt, Prompt, PromptResult, PromptSpec, Prompts};
use super::resource::{FnResource, Resource, ResourceSpec, ResourceUri, Resources};
use crate::failure::ToolFailure;
use crate::tool::{ListChanges, ResourceContents, ToolContext};

/// One prompt of a catalog: its listing and what renders it.
#[derive(Clone)]
pub struct PromptEntry {
    spec: Arc<PromptSpec>,
    source: Arc<dyn Prompts>,
    index: usize,
}

/// One resource or template of a catalog: its listing and what reads it.
#[derive(Clone)]
pub struct ResourceEntry {
    spec: Arc<ResourceSpec>,
    source: Arc<dyn Resources>,
    index: usize,
}

/// A prompt or a resource, as [`CatalogItem::entry`] gives it.
#[derive(Clone)]
pub enum CatalogEntry {
    /// A prompt.
    Prompt(PromptEntry),
    /// A resource or resource template.
    Resource(ResourceEntry),
}

impl CatalogEntry {
    /// The entry of prompt `P`.
    #[must_use]
    pub fn prompt<P: Prompt>() -> Self {
        Self::Prompt(PromptEntry {
            spec: Arc::new(P::spec().clone()),
            source: Arc::new(FnPrompt::<P>::new()),
            index: 0,
        })
    }

    /// The entry of resource `R`.
    #[must_use]
    pub fn resource<R: Resource>() -> Self {
        Self::Resource(ResourceEntry {
            spec: Arc::new(R::spec().clone()),
            source: Arc::new(FnResource::<R>::new()),
            index: 0,
        })
    }

    /// One entry per prompt `prompts` serves (an `#[prompts]` value).
    pub fn prompts(prompts: impl Prompts) -> impl Iterator<Item = Self> {
        let source: Arc<dyn Prompts> = Arc::new(prompts);
        let specs = source.prompt_specs();
        numbered(source, specs).map(|(spec, source, index)| {
            Self::Prompt(PromptEntry {
                spec,
                source,
                index,
            })
        })
    }

    /// One entry per resource or template `resources` serves (a `#[resources]` value).
    pub fn resources(resources: impl Resources) -> impl Iterator<Item = Self> {
        let source: Arc<dyn Resources> = Arc::new(resources);
        let specs = source.resource_specs();
        numbered(source, specs).map(|(spec, source, index)| {
            Self::Resource(ResourceEntry {
                spec,
                source,
                index,
            })
        })
    }
}

/// Each of `specs` with the `source` that serves it and its number there.
fn numbered<S: ?Sized, T>(
    source: Arc<S>,
    specs: Vec<T>,
) -> impl Iterator<Item = (Arc<T>, Arc<S>, usize)> {
    specs
        .into_iter()
        .enumerate()
        .map(move |(index, spec)| (Arc::new(spec), Arc::clone(&source), index))
}

/// What `#[prompt]` and `#[resource]` implement, so [`catalog!`](crate::catalog!) takes both.
pub trait CatalogItem {
    /// The item's entry.
    fn entry() -> CatalogEntry;
}

/// Why a catalog request failed.
#[derive(Debug)]
pub enum CatalogError {
    /// No prompt has this name.
    UnknownPrompt(String),
    /// No resource or template matches this URI.
    UnknownResource(String),
    /// The prompt or resource function failed (a missing argument is an
    /// [`InvalidArguments`](crate::FailureKind::InvalidArguments) failure).
    Failed(ToolFailure),
}

impl fmt::Display for CatalogError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::UnknownPrompt(name) => write!(f, "unknown prompt `{name}`"),
            Self::UnknownResource(uri) => write!(f, "resource not found: `{uri}`"),
            Self::Failed(failure) => f.write_str(failure.message()),
        }
    }
}

impl std::error::Error for CatalogError {}

/// What a completion is for (`completion/complete`'s `ref`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CompletionRef<'a> {
    /// An argument of the prompt with this name.
    Prompt(&'a str),
    /// A variable of the resource template (or resource) with this URI.
    Resource(&'a str),
}

/// The entries, and who hears of their changes.
pub(super) struct Shared {
    entries: RwLock<Entries>,
    prompts_changed: watch::Sender<u64>,
    resources_changed: watch::Sender<u64>,
    /// An editor was taken: the catalog may change while served.
    pub(super) editable: AtomicBool,
}

impl Default for Shared {
    fn default() -> Self {
        Self {
            entries: RwLock::default(),
            prompts_changed: watch::Sender::new(0),
            resources_changed: watch::Sender::new(0),
            editable: AtomicBool::new(false),
        }
    }
}

#[derive(Default)]
struct Entries {
    prompts: Vec<PromptEntry>,
    resources: Vec<ResourceEntry>,
}

impl Shared {
    fn read(&self) -> std::sync::RwLockReadGuard<'_, Entries> {
        self.entries.read().unwrap_or_else(PoisonError::into_inner)
    }

    fn write(&self) -> std::sync::RwLockWriteGuard<'_, Entries> {
        self.entries.write().unwrap_or_else(PoisonError::into_inner)
    }

    /// Adds `entry`, replacing one with its name (prompts) or address (resources), and tells
    /// those who listen.
    pub(super) fn insert(&self, entry: CatalogEntry) {
        match entry {
            CatalogEntry::Prompt(p) => {
                let mut entries = self.write();
                entries.prompts.retain(|old| old.spec.name != p.spec.name);
                entries.prompts.push(p);
                drop(entries);
                self.prompts_changed.send_modify(|n| *n += 1);
            }
            CatalogEntry::Resource(r) => {
                let mut entries = self.write();
                entries.resources.retain(|old| old.spec.uri != r.spec.uri);
                entries.resources.push(r);
                drop(entries);
                self.resources_changed.send_modify(|n| *n += 1);
            }
        }
    }

    /// Removes prompt `name`; whether there was one.
    pub(super) fn remove_prompt(&self, name: &str) -> bool {
        let removed = remove(&mut self.write().prompts, |p| p.spec.name == name);
        changed(&self.prompts_changed, removed)
    }

    /// Removes the resource with URI `uri`, or the template written `uri`; whether there was
    /// one.
    pub(super) fn remove_resource(&self, uri: &str) -> bool {
        let removed = remove(&mut self.write().resources, |r| r.spec.uri.is(uri));
        changed(&self.resources_changed, removed)
    }
}

/// Removes the entries `gone` picks; whether there were any.
fn remove<E>(entries: &mut Vec<E>, gone: impl Fn(&E) -> bool) -> bool {
    let before = entries.len();
    entries.retain(|e| !gone(e));
    entries.len() != before
}

/// Tells those who listen when `removed`; `removed`.
fn changed(counter: &watch::Sender<u64>, removed: bool) -> bool {
    if removed {
        counter.send_modify(|n| *n += 1);
    }
    removed
}

impl ResourceUri {
    /// Whether this is the fixed URI `text`, or the template written `text`.
    fn is(&self, text: &str) -> bool {
        match self {
            Self::Fixed(fixed) => fixed == text,
            Self::Template(t) => t.as_str() == text,
        }
    }
}

/// The prompts, resources and resource templates a server offers beside its tools: the rest
/// of an MCP server's catalogue (tools stay in a [`ToolSet`](crate::tool::ToolSet) or any
/// executor, so everything that runs tools keeps taking one executor). Built with
/// [`catalog!`](crate::catalog!) from `#[prompt]` and `#[resource]` functions, served with
/// `McpServer::with_catalog`.
///
/// Names and URIs are unique: an entry with the name (prompts) or URI/template (resources)
/// of an earlier one replaces it.
///
/// ```
/// use tool_executor::catalog::{Catalog, CompletionRef, PromptMessage};
/// use tool_executor::prelude::*;
///
/// /// Greets someone.
/// #[prompt]
/// fn greet(
///     /// Who to greet.
///     name: String,
/// ) -> PromptMessage {
///     PromptMessage::user(format!("Say hello to {name}."))
/// }
///
/// /// A note by id.
/// #[resource(template = "notes://{id}", mime_type = "text/plain")]
/// fn note(id: u32) -> String {
///     format!("note {id}")
/// }
///
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let catalog: Catalog = catalog![greet, note];
/// let result = catalog.get_prompt("greet", &serde_json::from_value(json!({"name": "Ada"})).unwrap()).await.unwrap();
/// assert_eq!(result.messages[0], PromptMessage::user("Say hello to Ada."));
/// let contents = catalog.read("notes://7").await.unwrap();
/// assert_eq!(serde_json::to_value(&contents).unwrap(), json!([{"uri": "notes://7", "mimeType": "text/plain", "text": "note 7"}]));
/// # });
/// ```
///
/// A `Catalog` is a handle: its clones share the entries. A catalog whose contents change
/// while served hands out a [`CatalogEditor`](super::CatalogEditor) ([`editor`](Self::editor));
/// the server then advertises `listChanged` and tells its clients of each change.
#[derive(Clone, Default)]
pub struct Catalog {
    pub(super) shared: Arc<Shared>,
}

impl fmt::Debug for Catalog {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let entries = self.shared.read();
        f.debug_struct("Catalog")
            .field(
                "prompts",
                &entries
                    .prompts
                    .iter()
                    .map(|p| &p.spec.name)
                    .collect::<Vec<_>>(),
            )
            .field("resources", &entries.resources.len())
            .finish()
    }
}

impl Catalog {
    /// An empty catalog.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// With the prompt or resource `I` (what [`catalog!`](crate::catalog!) calls).
    #[must_use]
    pub fn with<I: CatalogItem>(self) -> Self {
        self.with_entry(I::entry())
    }

    /// With `entry`.
    #[must_use]
    pub fn with_entry(self, entry: CatalogEntry) -> Self {
        self.shared.insert(entry);
        self
    }

    /// With the prompts of a `#[prompts]` value (an `Arc` of one too, to keep using it).
    #[must_use]
    pub fn with_prompts(self, prompts: impl Prompts) -> Self {
        CatalogEntry::prompts(prompts).for_each(|e| self.shared.insert(e));
        self
    }

    /// With the resources and templates of a `#[resources]` value (or an `Arc` of one).
    #[must_use]
    pub fn with_resources(self, resources: impl Resources) -> Self {
        CatalogEntry::resources(resources).for_each(|e| self.shared.insert(e));
        self
    }

    /// Whether it has prompts.
    #[must_use]
    pub fn has_prompts(&self) -> bool {
        !self.shared.read().prompts.is_empty()
    }

    /// Whether it has resources or templates.
    #[must_use]
    pub fn has_resources(&self) -> bool {
        !self.shared.read().resources.is_empty()
    }

    /// Whether its contents can change: an [`editor`](Self::editor) was taken.
    #[must_use]
    pub fn can_change(&self) -> bool {
        self.shared.editable.load(Ordering::Acquire)
    }

    /// A subscription to changes of its prompts; `None` when it cannot change.
    #[must_use]
    pub fn prompt_changes(&self) -> Option<ListChanges> {
        self.can_change()
            .then(|| ListChanges::new(self.shared.prompts_changed.subscribe()))
    }

    /// A subscription to changes of its resources and templates; `None` when it cannot
    /// change.
    #[must_use]
    pub fn resource_changes(&self) -> Option<ListChanges> {
        self.can_change()
            .then(|| ListChanges::new(self.shared.resources_changed.subscribe()))
    }

    /// The prompts, in order.
    #[must_use]
    pub fn prompts(&self) -> Vec<Arc<PromptSpec>> {
        let entries = self.shared.read();
        entries
            .prompts
            .iter()
            .map(|p| Arc::clone(&p.spec))
            .collect()
    }

    /// The fixed-URI resources, in order.
    #[must_use]
    pub fn resources(&self) -> Vec<Arc<ResourceSpec>> {
        self.resource_specs(|uri| matches!(uri, ResourceUri::Fixed(_)))
    }

    /// The resource templates, in order.
    #[must_use]
    pub fn templates(&self) -> Vec<Arc<ResourceSpec>> {
        self.resource_specs(|uri| matches!(uri, ResourceUri::Template(_)))
    }

    fn resource_specs(&self, keep: impl Fn(&ResourceUri) -> bool) -> Vec<Arc<ResourceSpec>> {
        let entries = self.shared.read();
        entries
            .resources
            .iter()
            .filter(|r| keep(&r.spec.uri))
            .map(|r| Arc::clone(&r.spec))
            .collect()
    }

    /// Renders prompt `name` with `arguments`, with an empty context.
    ///
    /// # Errors
    /// No such prompt, or its function failed (a missing required argument included).
    pub async fn get_prompt(
        &self,
        name: &str,
        arguments: &Map<String, Value>,
    ) -> Result<PromptResult, CatalogError> {
        self.get_prompt_with_context(name, arguments, &ToolContext::new())
            .await
    }

    /// Renders prompt `name` with `arguments` for the caller `ctx` describes (what a
    /// function taking `&ToolContext` is given).
    ///
    /// # Errors
    /// No such prompt, or its function failed (a missing required argument included).
    pub async fn get_prompt_with_context(
        &self,
        name: &str,
        arguments: &Map<String, Value>,
        ctx: &ToolContext,
    ) -> Result<PromptResult, CatalogError> {
        let entry = self
            .shared
            .read()
            .prompts
            .iter()
            .find(|p| p.spec.name == name)
            .cloned()
            .ok_or_else(|| CatalogError::UnknownPrompt(name.to_owned()))?;
        entry
            .source
            .get_prompt(entry.index, arguments, ctx)
            .await
            .map_err(CatalogError::Failed)
    }

    /// Reads `uri` with an empty context.
    ///
    /// # Errors
    /// No resource matches, or its function failed.
    pub async fn read(&self, uri: &str) -> Result<Vec<ResourceContents>, CatalogError> {
        self.read_with_context(uri, &ToolContext::new()).await
    }

    /// Reads `uri` for the caller `ctx` describes: the fixed resource with this URI, else the
    /// first template that matches.
    ///
    /// # Errors
    /// No resource matches, or its function failed.
    pub async fn read_with_context(
        &self,
        uri: &str,
        ctx: &ToolContext,
    ) -> Result<Vec<ResourceContents>, CatalogError> {
        let (entry, variables) = {
            let entries = self.shared.read();
            let fixed = entries
                .resources
                .iter()
                .find(|r| matches!(&r.spec.uri, ResourceUri::Fixed(fixed) if fixed == uri));
            match fixed {
                Some(entry) => (entry.clone(), Map::new()),
                None => entries
                    .resources
                    .iter()
                    .find_map(|r| match &r.spec.uri {
                        ResourceUri::Template(t) => t.matches(uri).map(|vars| (r.clone(), vars)),
                        ResourceUri::Fixed(_) => None,
                    })
                    .ok_or_else(|| CatalogError::UnknownResource(uri.to_owned()))?,
            }
        };
        entry
            .source
            .read_resource(entry.index, uri, &variables, ctx)
            .await
            .map_err(CatalogError::Failed)
    }

    /// Whether a resource or template serves `uri` (what a subscription may name).
    #[must_use]
    pub fn serves(&self, uri: &str) -> bool {
        self.shared
            .read()
            .resources
            .iter()
            .any(|r| match &r.spec.uri {
                ResourceUri::Fixed(fixed) => fixed == uri,
                ResourceUri::Template(t) => t.matches(uri).is_some(),
            })
    }

    /// Completions for `argument` of `target`, starting like `value` (at most 100).
    ///
    /// # Errors
    /// No prompt or resource is `target`.
    pub fn complete(
        &self,
        target: CompletionRef<'_>,
        argument: &str,
        value: &str,
    ) -> Result<Vec<String>, CatalogError> {
        let values = match target {
            CompletionRef::Prompt(name) => {
                let entry = self
                    .shared
                    .read()
                    .prompts
                    .iter()
                    .find(|p| p.spec.name == name)
                    .cloned()
                    .ok_or_else(|| CatalogError::UnknownPrompt(name.to_owned()))?;
                entry.source.complete_prompt(entry.index, argument, value)
            }
            CompletionRef::Resource(uri) => {
                let entry = self
                    .shared
                    .read()
                    .resources
                    .iter()
                    .find(|r| r.spec.uri.is(uri))
                    .cloned()
                    .ok_or_else(|| CatalogError::UnknownResource(uri.to_owned()))?;
                entry.source.complete_resource(entry.index, argument, value)
            }
        };
        Ok(super::args::completions(values))
    }
}
