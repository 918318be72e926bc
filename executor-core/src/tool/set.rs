//! `ToolSet`: free-fn tools and executors behind one name-dispatching executor, and its
//! builder.

use std::fmt;
use std::sync::Arc;

use serde_json::Value;
use tokio::sync::mpsc;

use super::call::adapt::{Adapted, ForSeed};
use super::context::ToolContext;
use super::context_executor::ContextExecutor;
use super::execution::{BoxFuture, SpecList, ToolExecution};
use super::executor::ToolExecutor;
use super::fn_tool::{FnTool, Tool};
use super::route::{RouteTable, unserved};
use super::spec::ToolSpec;
use super::stream::ToolStreamChunk;
use super::stream_task::stream_clone;
use crate::failure::ToolFailure;

#[derive(Clone)]
enum Target {
    Fn(FnTool),
    Executor(Arc<dyn ToolExecutor>),
}

/// Two tools in one set share a name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DuplicateTool(pub String);

impl fmt::Display for DuplicateTool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "two tools are named `{}`", self.0)
    }
}

impl std::error::Error for DuplicateTool {}

/// A set of tools served as one [`ToolExecutor`]: dispatch by name, specs listed in the order
/// the tools were added, an unknown name an *unhandled* failure (or the fallback's call).
///
/// Cloning is cheap (one `Arc`). Build one with [`toolset!`](crate::toolset) from free-fn tools
/// (duplicate names are a compile error) or with [`ToolSet::builder`].
///
/// ```
/// use tool_executor::prelude::*;
///
/// /// Adds two numbers.
/// #[tool]
/// fn add(a: i64, b: i64) -> i64 { a + b }
///
/// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
/// let tools = toolset![add];
/// let sum = tools.execute("add", &serde_json::json!({"a": 2, "b": 3})).await;
/// assert_eq!(sum, Ok(serde_json::json!(5)));
/// # });
/// ```
#[derive(Clone)]
pub struct ToolSet {
    inner: Arc<Inner>,
    /// Beside `inner` rather than in it: listing is the list's own `Arc` clone, with no load
    /// through `inner` first (measured in BENCHMARKS.md §6).
    specs: SpecList,
}

struct Inner {
    routes: RouteTable<Target>,
    fallback: Option<Arc<dyn ToolExecutor>>,
    /// Provider definitions, computed on first use (`ToolSet::definitions`).
    definitions: crate::provider::Cache,
}

impl fmt::Debug for ToolSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list()
            .entries(self.specs.iter().map(|s| &s.name))
            .finish()
    }
}

impl ToolSet {
    /// A builder that checks names at run time.
    #[must_use]
    pub fn builder() -> ToolSetBuilder {
        ToolSetBuilder::default()
    }

    /// The specs, in the order the tools were added.
    #[must_use]
    pub fn list(&self) -> &[Arc<ToolSpec>] {
        &self.specs
    }

    /// The spec of `name`, if served here.
    #[must_use]
    pub fn spec(&self, name: &str) -> Option<&Arc<ToolSpec>> {
        self.specs.iter().find(|s| s.name == name)
    }

    /// How many tools the set serves.
    #[must_use]
    pub fn len(&self) -> usize {
        self.specs.len()
    }

    /// The `#[tool]` function served as `name`, if that is what serves it: a wrapper that
    /// resolved the name once calls it without this set's lookup (`transform::Transformed`).
    pub(crate) fn fn_tool(&self, name: &str) -> Option<FnTool> {
        match self.inner.routes.get(name) {
            Some(Target::Fn(tool)) => Some(*tool),
            _ => None,
        }
    }

    pub(crate) fn definitions_cache(&self) -> &crate::provider::Cache {
        &self.inner.definitions
    }

    /// Whether the set serves no tool.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.specs.is_empty()
    }
}

/// Builds a [`ToolSet`], rejecting duplicate names.
#[derive(Default)]
pub struct ToolSetBuilder {
    entries: Vec<(Arc<ToolSpec>, Target)>,
    fallback: Option<Arc<dyn ToolExecutor>>,
}

impl ToolSetBuilder {
    /// Adds the free-fn tool `T` (the struct `#[tool]` generated).
    #[must_use]
    pub fn tool<T: Tool>(self) -> Self {
        self.fn_tool(FnTool::of::<T>())
    }

    fn fn_tool(mut self, tool: FnTool) -> Self {
        self.entries
            .push((Arc::clone(tool.spec()), Target::Fn(tool)));
        self
    }

    /// Adds every tool `executor` lists in its [`specs`](ToolExecutor::specs).
    #[must_use]
    pub fn executor(self, executor: impl ToolExecutor + 'static) -> Self {
        self.shared(Arc::new(executor))
    }

    /// Like [`executor`](Self::executor) for an executor that is already shared.
    #[must_use]
    #[allow(clippy::needless_pass_by_value)] // takes the `Arc` like `Arc::clone` callers expect
    pub fn shared(mut self, executor: Arc<dyn ToolExecutor>) -> Self {
        for spec in executor.specs().iter() {
            self.entries
                .push((Arc::clone(spec), Target::Executor(Arc::clone(&executor))));
        }
        self
    }

    /// Sends calls to tools this set does not serve to `fallback` instead of failing them as
    /// unhandled.
    #[must_use]
    pub fn fallback(mut self, fallback: Arc<dyn ToolExecutor>) -> Self {
        self.fallback = Some(fallback);
        self
    }

    /// The set.
    ///
    /// # Errors
    /// [`DuplicateTool`] when two tools share a name.
    pub fn build(self) -> Result<ToolSet, DuplicateTool> {
        let mut seen = std::collections::HashSet::new();
        for (spec, _) in &self.entries {
            if !seen.insert(spec.name.as_str()) {
                return Err(DuplicateTool(spec.name.clone()));
            }
        }
        Ok(self.build_lenient())
    }

    fn build_lenient(self) -> ToolSet {
        let mut specs: Vec<Arc<ToolSpec>> = Vec::with_capacity(self.entries.len());
        let routes = RouteTable::new(self.entries.into_iter().filter_map(|(spec, target)| {
            if specs.iter().any(|known| known.name == spec.name) {
                return None;
            }
            let name = spec.name.clone();
            specs.push(spec);
            Some((name, target))
        }));
        ToolSet {
            specs: specs.into(),
            inner: Arc::new(Inner {
                routes,
                fallback: self.fallback,
                definitions: crate::provider::Cache::default(),
            }),
        }
    }
}

/// The set `toolset!` builds. The macro proved the names distinct at compile time; a clash can
/// only come from two paths to one tool, which resolve to the same entry anyway.
#[must_use]
pub fn tool_set(tools: &[FnTool]) -> ToolSet {
    tools
        .iter()
        .fold(ToolSet::builder(), |builder, tool| builder.fn_tool(*tool))
        .build_lenient()
}

impl ContextExecutor for ToolSet {
    #[inline]
    fn dispatch<'a>(
        &'a self,
        tool: &'a str,
        params: &'a Value,
        ctx: ToolContext,
    ) -> BoxFuture<'a, Result<ToolExecution, ToolFailure>> {
        match self.inner.routes.get(tool) {
            Some(Target::Fn(fn_tool)) => fn_tool.run(params, ctx),
            Some(Target::Executor(executor)) => executor.execute_with_context(tool, params, ctx),
            None => unserved(self.inner.fallback.as_ref(), tool, params, ctx),
        }
    }

    /// A `#[tool]` function's seed call in one allocation; anything else adapts `dispatch`.
    #[inline]
    fn dispatch_for_seed<'a>(
        &'a self,
        tool: &'a str,
        params: &'a Value,
        ctx: ToolContext,
    ) -> BoxFuture<'a, Result<Value, String>> {
        if let Some(Target::Fn(fn_tool)) = self.inner.routes.get(tool) {
            return fn_tool.run_for_seed(params, ctx);
        }
        Box::pin(Adapted::<_, ForSeed>::new(self.dispatch(tool, params, ctx)))
    }

    fn stream<'a>(
        &'a self,
        tool: &'a str,
        params: &'a Value,
        action_id: &'a str,
    ) -> BoxFuture<'a, Result<mpsc::Receiver<ToolStreamChunk>, String>> {
        stream_clone(self, tool, params, action_id)
    }

    fn list_specs(&self) -> SpecList {
        Arc::clone(&self.specs)
    }
}

/// `toolset!`'s duplicate-name check, run by the compiler: `names` are the listed tools'
/// `Tool::NAME`s and `entries` their paths as written. `toolset!` calls it in a `const` for
/// each entry after the first, blamed on that entry.
///
/// # Panics
/// At compile time, when `names[index]` equals an earlier name: the message names the name and
/// both entries.
pub const fn check_unique_name(names: &[&str], entries: &[&str], index: usize) {
    let mut earlier = 0;
    while earlier < index {
        if str_eq(names[earlier], names[index]) {
            let mut message = ConstText::new();
            message.push("`");
            message.push(entries[index]);
            message.push("` and `");
            message.push(entries[earlier]);
            message.push("` in toolset! are both named \"");
            message.push(names[index]);
            message.push("\"; give one of them #[tool(name = \"…\")]");
            match message.as_str() {
                Some(text) => panic!("{}", text),
                None => panic!(
                    "two tools in toolset! have the same name; give one of them #[tool(name = \"…\")]"
                ),
            }
        }
        earlier += 1;
    }
}

/// A message built at compile time, in a fixed buffer (cut at its end).
struct ConstText {
    bytes: [u8; 512],
    len: usize,
}

impl ConstText {
    const fn new() -> Self {
        Self {
            bytes: [0; 512],
            len: 0,
        }
    }

    const fn push(&mut self, text: &str) {
        let text = text.as_bytes();
        let mut i = 0;
        while i < text.len() && self.len < self.bytes.len() {
            self.bytes[self.len] = text[i];
            self.len += 1;
            i += 1;
        }
    }

    /// `None` when the cut fell inside a character.
    const fn as_str(&self) -> Option<&str> {
        match core::str::from_utf8(self.bytes.split_at(self.len).0) {
            Ok(text) => Some(text),
            Err(_) => None,
        }
    }
}

const fn str_eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}
