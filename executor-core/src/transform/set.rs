//! [`Transformed`]: an executor's tools as the transforms, visibility rules and hooks of a
//! [`Transform`](super::Transform) make them; the call path maps each call back.

use std::borrow::Cow;
use std::fmt;
use std::pin::Pin;
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll, ready};

use serde_json::Value;
use tokio::sync::mpsc;

use super::args::ArgChanges;
use super::hook::{AfterCall, AfterHook, BeforeCall, BeforeHook, Caller};
use super::visibility::Visibility;
use crate::failure::ToolFailure;
use crate::tool::fn_tool::FnTool;
use crate::tool::route::{RouteTable, unserved};
use crate::tool::stream_task::stream_clone;
use crate::tool::{
    BoxFuture, ContextExecutor, ListChanges, SpecList, ToolContext, ToolExecution, ToolExecutor,
    ToolSpec, ToolStreamChunk,
};

/// One listed tool: its name underneath, its spec as listed, and how its calls' arguments
/// map back (`None`: they pass as they are).
pub(crate) struct Entry {
    /// The `#[tool]` function itself, when the executor is a `ToolSet`.
    pub(crate) direct: Option<FnTool>,
    pub(crate) inner_name: Box<str>,
    pub(crate) spec: Arc<ToolSpec>,
    pub(crate) args: Option<Arc<ArgChanges>>,
}

/// An executor's tools transformed: built by [`Transform`](super::Transform). It lists the
/// transformed specs (so MCP `tools/list`, the A2A card and provider definitions show them),
/// serves calls under the new names with the arguments mapped back, hides and refuses what its
/// [`Visibility`] hides, and runs its hooks around each call, streamed calls included.
///
/// Cloning is cheap (one `Arc`).
pub struct Transformed<E> {
    shared: Arc<Shared<E>>,
}

impl<E> Clone for Transformed<E> {
    fn clone(&self) -> Self {
        Self {
            shared: Arc::clone(&self.shared),
        }
    }
}

pub(crate) struct Shared<E> {
    executor: E,
    routes: RouteTable<Entry>,
    /// Every listed spec, hidden or not, in the executor's order.
    all: SpecList,
    visibility: Option<Visibility>,
    before: Box<[Arc<dyn BeforeHook>]>,
    after: Box<[Arc<dyn AfterHook>]>,
    /// The executor listed nothing (it cannot say what it serves): unknown names go to it.
    passthrough: bool,
    /// The visible specs for callers the rules do not tell apart, at a visibility version.
    listed: Mutex<(u64, SpecList)>,
}

impl<E> Shared<E> {
    pub(crate) fn new(
        executor: E,
        entries: Vec<(String, Entry)>,
        visibility: Option<Visibility>,
        before: Vec<Arc<dyn BeforeHook>>,
        after: Vec<Arc<dyn AfterHook>>,
        passthrough: bool,
    ) -> Self {
        let all: SpecList = entries.iter().map(|(_, e)| Arc::clone(&e.spec)).collect();
        Self {
            executor,
            routes: RouteTable::new(entries),
            listed: Mutex::new((u64::MAX, Arc::clone(&all))),
            all,
            visibility,
            before: before.into(),
            after: after.into(),
            passthrough,
        }
    }
}

impl<E> fmt::Debug for Transformed<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Transformed")
            .field("tools", &self.shared.routes)
            .field("visibility", &self.shared.visibility)
            .field("before_hooks", &self.shared.before.len())
            .field("after_hooks", &self.shared.after.len())
            .finish_non_exhaustive()
    }
}

impl<E: ToolExecutor + 'static> Transformed<E> {
    pub(crate) fn from_shared(shared: Shared<E>) -> Self {
        Self {
            shared: Arc::new(shared),
        }
    }

    /// The executor underneath.
    #[must_use]
    pub fn inner(&self) -> &E {
        &self.shared.executor
    }

    /// The visibility rules, when the set has them.
    #[must_use]
    pub fn visibility_rules(&self) -> Option<&Visibility> {
        self.shared.visibility.as_ref()
    }

    /// Every spec the set lists when nothing is hidden, in order.
    #[must_use]
    pub fn all_specs(&self) -> &SpecList {
        &self.shared.all
    }

    /// The visible specs for `ctx` (the caller rule asked), or for no caller in particular.
    fn visible(&self, ctx: Option<&ToolContext>) -> SpecList {
        let shared = &*self.shared;
        let Some(visibility) = &shared.visibility else {
            return Arc::clone(&shared.all);
        };
        let filter = |ctx: &ToolContext| -> SpecList {
            shared
                .all
                .iter()
                .filter(|spec| visibility.allows(spec, ctx))
                .cloned()
                .collect()
        };
        if let Some(ctx) = ctx
            && visibility.per_caller()
        {
            return filter(ctx);
        }
        let version = visibility.version();
        let mut listed = shared.listed.lock().unwrap_or_else(PoisonError::into_inner);
        if listed.0 != version {
            *listed = (version, filter(&ToolContext::new()));
        }
        Arc::clone(&listed.1)
    }

    /// The tool's own call, under its own name.
    #[inline]
    fn run<'a>(
        &'a self,
        entry: &'a Entry,
        args: &'a Value,
        ctx: ToolContext,
    ) -> BoxFuture<'a, Result<ToolExecution, ToolFailure>> {
        match &entry.direct {
            Some(tool) => tool.run(args, ctx),
            None => self
                .shared
                .executor
                .execute_with_context(&entry.inner_name, args, ctx),
        }
    }

    /// The call of a visible tool: before hooks, the arguments mapped back, the call, after
    /// hooks.
    fn call<'a>(
        &'a self,
        entry: &'a Entry,
        params: &'a Value,
        ctx: ToolContext,
    ) -> BoxFuture<'a, Result<ToolExecution, ToolFailure>> {
        let shared = &*self.shared;
        let mut before = BeforeCall {
            spec: &entry.spec,
            ctx: &ctx,
            args: Cow::Borrowed(params),
        };
        let refused = shared
            .before
            .iter()
            .try_for_each(|hook| hook.before(&mut before));
        // A hook that rewrote the arguments owns them; else they are still the caller's.
        let args = match before.args {
            Cow::Owned(args) => Cow::Owned(args),
            Cow::Borrowed(_) => Cow::Borrowed(params),
        };
        let mapped = match (refused, &entry.args) {
            (Err(failure), _) => Err(failure),
            (Ok(()), Some(changes)) => changes.map(&args, &ctx).map(Cow::Owned),
            (Ok(()), None) => Ok(args),
        };
        if shared.after.is_empty() {
            return match mapped {
                Err(failure) => Box::pin(std::future::ready(Err(failure))),
                // The usual case: the tool's own future, not wrapped.
                Ok(Cow::Borrowed(args)) => self.run(entry, args, ctx),
                Ok(Cow::Owned(args)) => Box::pin(async move { self.run(entry, &args, ctx).await }),
            };
        }
        let caller = Caller::of(&ctx);
        // The tool's future is made here, so the wrapper holds only it, the caller and the
        // hooks (not the arguments, the context and a failure slot): a small box, polled
        // without an `async` state machine around it.
        let inner = match mapped {
            Err(failure) => Box::pin(std::future::ready(Err(failure))),
            Ok(Cow::Borrowed(args)) => self.run(entry, args, ctx),
            Ok(Cow::Owned(args)) => Box::pin(async move { self.run(entry, &args, ctx).await }),
        };
        Box::pin(AfterHooks {
            inner,
            spec: &entry.spec,
            caller,
            hooks: &shared.after,
        })
    }
}

/// A call's future with the after hooks run on its outcome.
struct AfterHooks<'a> {
    inner: BoxFuture<'a, Result<ToolExecution, ToolFailure>>,
    spec: &'a ToolSpec,
    caller: Caller,
    hooks: &'a [Arc<dyn AfterHook>],
}

impl Future for AfterHooks<'_> {
    type Output = Result<ToolExecution, ToolFailure>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let mut outcome = ready!(self.inner.as_mut().poll(cx));
        let call = AfterCall {
            spec: self.spec,
            caller: &self.caller,
        };
        for hook in self.hooks {
            hook.after(&call, &mut outcome);
        }
        Poll::Ready(outcome)
    }
}

impl<E: ToolExecutor + 'static> ContextExecutor for Transformed<E> {
    fn dispatch<'a>(
        &'a self,
        tool: &'a str,
        params: &'a Value,
        ctx: ToolContext,
    ) -> BoxFuture<'a, Result<ToolExecution, ToolFailure>> {
        let shared = &*self.shared;
        match shared.routes.get(tool) {
            Some(entry) => {
                if let Some(visibility) = &shared.visibility
                    && !visibility.allows(&entry.spec, &ctx)
                {
                    // Hidden is absent: the failure a name never served gets.
                    return unserved(None, tool, params, ctx);
                }
                if shared.before.is_empty() && shared.after.is_empty() && entry.args.is_none() {
                    // Nothing runs around the call: the tool's own future.
                    return self.run(entry, params, ctx);
                }
                self.call(entry, params, ctx)
            }
            None if shared.passthrough => shared.executor.execute_with_context(tool, params, ctx),
            None => unserved(None, tool, params, ctx),
        }
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
        self.visible(None)
    }

    fn list_specs_for(&self, ctx: &ToolContext) -> SpecList {
        self.visible(Some(ctx))
    }

    fn list_changes(&self) -> Option<ListChanges> {
        self.shared.visibility.as_ref().map(Visibility::changes)
    }
}
