//! Executors composed of executors: a fallback chain and name-prefix routing.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use serde_json::Value;

use super::options::{CallOptions, forward, relay};
use crate::failure::ToolFailure;
use crate::failure::transport::{RetryDecision, for_retry};
use crate::tool::route::unserved;
use crate::tool::{
    BoxFuture, ContextExecutor, DuplicateTool, SpecList, ToolContext, ToolExecution, ToolExecutor,
    ToolSpec,
};

/// The specs of several executors as one list, or the first name two of them share.
fn merge(specs: impl IntoIterator<Item = Arc<ToolSpec>>) -> Result<SpecList, DuplicateTool> {
    let mut seen = HashSet::new();
    let mut merged = Vec::new();
    for spec in specs {
        if !seen.insert(spec.name.clone()) {
            return Err(DuplicateTool(spec.name.clone()));
        }
        merged.push(spec);
    }
    Ok(merged.into())
}

/// Executors tried in order: a call goes to the executor that lists the tool, and to the ones
/// that list nothing (they cannot say what they serve); when one answers with an *unhandled*
/// failure the call goes on to the next. Every other failure, typed as it came, is the
/// answer: a peer's text (even one saying "unknown tool") cannot reroute a call, since the
/// unhandled flag never travels (see [`for_retry`]).
///
/// Its [`specs`](ToolExecutor::specs) are its executors' in order, read once when it is built.
///
/// ```
/// use tool_executor::prelude::*;
/// use tool_executor::runtime::FallbackChain;
/// use std::sync::Arc;
///
/// /// Adds two numbers.
/// #[tool]
/// fn add(a: i64, b: i64) -> i64 { a + b }
/// /// Says hello.
/// #[tool]
/// fn hello() -> String { "hello".into() }
///
/// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
/// let chain = FallbackChain::new([
///     Arc::new(toolset![add]) as Arc<dyn ToolExecutor>,
///     Arc::new(toolset![hello]),
/// ]).unwrap();
/// assert_eq!(chain.specs().len(), 2);
/// assert_eq!(chain.execute("hello", &json!({})).await, Ok(json!("hello")));
/// # });
/// ```
pub struct FallbackChain {
    executors: Vec<Arc<dyn ToolExecutor>>,
    /// For each listed tool, the index of the executor listing it.
    owners: HashMap<String, usize>,
    /// Which executors list nothing.
    unlisted: Vec<bool>,
    specs: SpecList,
}

impl std::fmt::Debug for FallbackChain {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FallbackChain")
            .field("executors", &self.executors.len())
            .field("specs", &self.specs)
            .finish_non_exhaustive()
    }
}

impl FallbackChain {
    /// The chain of `executors`, in order.
    ///
    /// # Errors
    /// [`DuplicateTool`] when two executors list the same tool.
    pub fn new(
        executors: impl IntoIterator<Item = Arc<dyn ToolExecutor>>,
    ) -> Result<Self, DuplicateTool> {
        let executors: Vec<_> = executors.into_iter().collect();
        let lists: Vec<SpecList> = executors.iter().map(|e| e.specs()).collect();
        let specs = merge(lists.iter().flat_map(|list| list.iter().cloned()))?;
        let owners = lists
            .iter()
            .enumerate()
            .flat_map(|(i, list)| list.iter().map(move |spec| (spec.name.clone(), i)))
            .collect();
        let unlisted = lists.iter().map(|list| list.is_empty()).collect();
        Ok(Self {
            executors,
            owners,
            unlisted,
            specs,
        })
    }

    /// The executors a call of `tool` may go to, in order.
    fn candidates<'a>(
        &'a self,
        tool: &str,
    ) -> impl Iterator<Item = &'a Arc<dyn ToolExecutor>> + Clone {
        let owner = self.owners.get(tool).copied();
        self.executors
            .iter()
            .enumerate()
            .filter(move |(i, _)| owner == Some(*i) || self.unlisted[*i])
            .map(|(_, executor)| executor)
    }
}

impl ContextExecutor for FallbackChain {
    fn dispatch<'a>(
        &'a self,
        tool: &'a str,
        params: &'a Value,
        ctx: ToolContext,
    ) -> BoxFuture<'a, Result<ToolExecution, ToolFailure>> {
        let mut candidates = self.candidates(tool);
        match (candidates.next(), candidates.clone().next()) {
            (None, _) => unserved(None, tool, params, ctx),
            // The usual case: one executor can serve the call, and it gets the context itself.
            (Some(only), None) => only.execute_with_context(tool, params, ctx),
            (Some(_), Some(_)) => Box::pin(async move {
                // Each try needs a context of its own; chunks from all of them reach `ctx`.
                let (options, chunks) = CallOptions::of_context(&ctx);
                let tries = async {
                    let mut last = ToolFailure::unknown_tool(tool);
                    for executor in self.candidates(tool) {
                        let key = options.idempotency_key.as_deref();
                        let try_ctx = options.context(ctx.attempt(), options.deadline, key);
                        match executor.execute_with_context(tool, params, try_ctx).await {
                            Err(failure) if for_retry(&failure) == RetryDecision::Fallback => {
                                last = failure;
                            }
                            answer => return answer,
                        }
                    }
                    Err(last)
                };
                relay(chunks, tries, |chunk| forward(&ctx, chunk)).await
            }),
        }
    }

    fn list_specs(&self) -> SpecList {
        Arc::clone(&self.specs)
    }
}

/// Routes calls by name prefix: `mcp_files_read` → the executor registered for `mcp_files_`,
/// called as `read` when the prefix is [stripped](PrefixRouterBuilder::strip) or as
/// `mcp_files_read` when it is [kept](PrefixRouterBuilder::keep). The longest matching prefix
/// wins; a name no prefix matches is an unhandled unknown tool. Failures pass through as
/// they came.
///
/// Its [`specs`](ToolExecutor::specs) are its executors' (read once when it is built), renamed
/// with the prefix where it is stripped; where it is kept, the specs whose names do not start
/// with it are left out, since no call could reach them.
///
/// ```
/// use tool_executor::prelude::*;
/// use tool_executor::runtime::PrefixRouter;
/// use std::sync::Arc;
///
/// /// Reads a file.
/// #[tool]
/// fn read(path: String) -> String { format!("contents of {path}") }
///
/// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
/// let router = PrefixRouter::builder()
///     .strip("files_", Arc::new(toolset![read]))
///     .build()
///     .unwrap();
/// assert_eq!(router.specs()[0].name, "files_read");
/// let out = router.execute("files_read", &json!({"path": "a.txt"})).await;
/// assert_eq!(out, Ok(json!("contents of a.txt")));
/// # });
/// ```
pub struct PrefixRouter {
    /// Longest prefix first.
    routes: Vec<Route>,
    specs: SpecList,
}

struct Route {
    prefix: String,
    strip: bool,
    executor: Arc<dyn ToolExecutor>,
}

impl std::fmt::Debug for PrefixRouter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let prefixes: Vec<&str> = self.routes.iter().map(|r| r.prefix.as_str()).collect();
        f.debug_struct("PrefixRouter")
            .field("prefixes", &prefixes)
            .field("specs", &self.specs)
            .finish()
    }
}

/// Builds a [`PrefixRouter`].
#[must_use]
pub struct PrefixRouterBuilder {
    routes: Vec<Route>,
}

impl PrefixRouter {
    /// A router with no routes yet.
    pub fn builder() -> PrefixRouterBuilder {
        PrefixRouterBuilder { routes: Vec::new() }
    }
}

impl PrefixRouterBuilder {
    /// Sends `prefix…` to `executor` without the prefix; its tools are listed with it.
    pub fn strip(mut self, prefix: impl Into<String>, executor: Arc<dyn ToolExecutor>) -> Self {
        self.routes.push(Route {
            prefix: prefix.into(),
            strip: true,
            executor,
        });
        self
    }

    /// Sends `prefix…` to `executor` under its full name.
    pub fn keep(mut self, prefix: impl Into<String>, executor: Arc<dyn ToolExecutor>) -> Self {
        self.routes.push(Route {
            prefix: prefix.into(),
            strip: false,
            executor,
        });
        self
    }

    /// The router.
    ///
    /// # Errors
    /// [`DuplicateTool`] when two routes list the same (prefixed) name.
    pub fn build(mut self) -> Result<PrefixRouter, DuplicateTool> {
        let mut listed = Vec::new();
        for route in &self.routes {
            for spec in route.executor.specs().iter() {
                if route.strip {
                    let mut renamed = ToolSpec::clone(spec);
                    renamed.name = format!("{}{}", route.prefix, spec.name);
                    listed.push(Arc::new(renamed));
                } else if spec.name.starts_with(&route.prefix) {
                    listed.push(Arc::clone(spec));
                }
            }
        }
        let specs = merge(listed)?;
        // Stable: of two routes with one prefix, the first added wins.
        self.routes
            .sort_by_key(|route| std::cmp::Reverse(route.prefix.len()));
        Ok(PrefixRouter {
            routes: self.routes,
            specs,
        })
    }
}

impl ContextExecutor for PrefixRouter {
    fn dispatch<'a>(
        &'a self,
        tool: &'a str,
        params: &'a Value,
        ctx: ToolContext,
    ) -> BoxFuture<'a, Result<ToolExecution, ToolFailure>> {
        let route = self.routes.iter().find(|r| tool.starts_with(&r.prefix));
        match route {
            Some(route) => {
                let name = if route.strip {
                    &tool[route.prefix.len()..]
                } else {
                    tool
                };
                route.executor.execute_with_context(name, params, ctx)
            }
            None => unserved(None, tool, params, ctx),
        }
    }

    fn list_specs(&self) -> SpecList {
        Arc::clone(&self.specs)
    }
}
