//! [`Catalog`]: the prompts, resources and resource templates a server offers beside its
//! tools, looked up by name and URI.

use std::fmt;

use serde_json::{Map, Value};

use super::prompt::{Prompt, PromptResult, PromptSpec};
use super::resource::{Resource, ResourceSpec, ResourceUri};
use crate::failure::ToolFailure;
use crate::tool::{BoxFuture, ResourceContents};

type GetFn = for<'a> fn(&'a Map<String, Value>) -> BoxFuture<'a, Result<PromptResult, ToolFailure>>;
type ReadFn = for<'a> fn(
    &'a str,
    &'a Map<String, Value>,
) -> BoxFuture<'a, Result<Vec<ResourceContents>, ToolFailure>>;
type CompleteFn = fn(&str, &str) -> Vec<String>;

/// One prompt of a catalog.
#[derive(Clone, Copy)]
pub struct PromptEntry {
    spec: fn() -> &'static PromptSpec,
    get: GetFn,
    complete: CompleteFn,
}

/// One resource or template of a catalog.
#[derive(Clone, Copy)]
pub struct ResourceEntry {
    spec: fn() -> &'static ResourceSpec,
    read: ReadFn,
    complete: CompleteFn,
}

/// A prompt or a resource, as [`CatalogItem::entry`] gives it.
#[derive(Clone, Copy)]
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
            spec: P::spec,
            get: P::get,
            complete: P::complete,
        })
    }

    /// The entry of resource `R`.
    #[must_use]
    pub fn resource<R: Resource>() -> Self {
        Self::Resource(ResourceEntry {
            spec: R::spec,
            read: R::read,
            complete: R::complete,
        })
    }
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
#[derive(Clone, Default)]
pub struct Catalog {
    prompts: Vec<PromptEntry>,
    resources: Vec<ResourceEntry>,
}

impl fmt::Debug for Catalog {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Catalog")
            .field(
                "prompts",
                &self.prompts().map(|p| &p.name).collect::<Vec<_>>(),
            )
            .field("resources", &self.resources.len())
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
    pub fn with_entry(mut self, entry: CatalogEntry) -> Self {
        match entry {
            CatalogEntry::Prompt(p) => {
                let name = &(p.spec)().name;
                self.prompts.retain(|old| (old.spec)().name != *name);
                self.prompts.push(p);
            }
            CatalogEntry::Resource(r) => {
                let uri = &(r.spec)().uri;
                self.resources.retain(|old| (old.spec)().uri != *uri);
                self.resources.push(r);
            }
        }
        self
    }

    /// Whether it has no prompts.
    #[must_use]
    pub fn has_prompts(&self) -> bool {
        !self.prompts.is_empty()
    }

    /// Whether it has no resources or templates.
    #[must_use]
    pub fn has_resources(&self) -> bool {
        !self.resources.is_empty()
    }

    /// The prompts, in order.
    pub fn prompts(&self) -> impl Iterator<Item = &'static PromptSpec> + '_ {
        self.prompts.iter().map(|p| (p.spec)())
    }

    /// The fixed-URI resources, in order.
    pub fn resources(&self) -> impl Iterator<Item = &'static ResourceSpec> + '_ {
        self.resource_specs()
            .filter(|s| matches!(s.uri, ResourceUri::Fixed(_)))
    }

    /// The resource templates, in order.
    pub fn templates(&self) -> impl Iterator<Item = &'static ResourceSpec> + '_ {
        self.resource_specs()
            .filter(|s| matches!(s.uri, ResourceUri::Template(_)))
    }

    fn resource_specs(&self) -> impl Iterator<Item = &'static ResourceSpec> + '_ {
        self.resources.iter().map(|r| (r.spec)())
    }

    /// Renders prompt `name` with `arguments`.
    ///
    /// # Errors
    /// No such prompt, or its function failed (a missing required argument included).
    pub async fn get_prompt(
        &self,
        name: &str,
        arguments: &Map<String, Value>,
    ) -> Result<PromptResult, CatalogError> {
        let entry = self
            .prompts
            .iter()
            .find(|p| (p.spec)().name == name)
            .ok_or_else(|| CatalogError::UnknownPrompt(name.to_owned()))?;
        (entry.get)(arguments).await.map_err(CatalogError::Failed)
    }

    /// Reads `uri`: the fixed resource with this URI, else the first template that matches.
    ///
    /// # Errors
    /// No resource matches, or its function failed.
    pub async fn read(&self, uri: &str) -> Result<Vec<ResourceContents>, CatalogError> {
        let fixed = self
            .resources
            .iter()
            .find(|r| matches!(&(r.spec)().uri, ResourceUri::Fixed(fixed) if fixed == uri));
        let (entry, variables) = match fixed {
            Some(entry) => (entry, Map::new()),
            None => self
                .resources
                .iter()
                .find_map(|r| match &(r.spec)().uri {
                    ResourceUri::Template(t) => t.matches(uri).map(|vars| (r, vars)),
                    ResourceUri::Fixed(_) => None,
                })
                .ok_or_else(|| CatalogError::UnknownResource(uri.to_owned()))?,
        };
        (entry.read)(uri, &variables)
            .await
            .map_err(CatalogError::Failed)
    }

    /// Whether a resource or template serves `uri` (what a subscription may name).
    #[must_use]
    pub fn serves(&self, uri: &str) -> bool {
        self.resource_specs().any(|s| match &s.uri {
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
        let complete = match target {
            CompletionRef::Prompt(name) => self
                .prompts
                .iter()
                .find(|p| (p.spec)().name == name)
                .map(|p| p.complete)
                .ok_or_else(|| CatalogError::UnknownPrompt(name.to_owned()))?,
            CompletionRef::Resource(uri) => self
                .resources
                .iter()
                .find(|r| match &(r.spec)().uri {
                    ResourceUri::Fixed(fixed) => fixed == uri,
                    ResourceUri::Template(t) => t.as_str() == uri,
                })
                .map(|r| r.complete)
                .ok_or_else(|| CatalogError::UnknownResource(uri.to_owned()))?,
        };
        Ok(super::args::completions(complete(argument, value)))
    }
}
