//! Hooks around every call of a transformed set: [`BeforeHook`] (inspect or rewrite the
//! arguments, or refuse the call: a guardrail) and [`AfterHook`] (inspect or rewrite the result
//! or the failure: redaction).

use std::borrow::Cow;

use serde_json::Value;

use crate::failure::ToolFailure;
use crate::tool::{ToolContext, ToolExecution, ToolSpec};

/// A call about to run: the tool's spec as listed, the caller's context and the arguments as
/// the caller sent them (after earlier hooks' rewrites, before argument transforms map them
/// back to the tool's own names).
pub struct BeforeCall<'a> {
    pub(crate) spec: &'a ToolSpec,
    pub(crate) ctx: &'a ToolContext,
    pub(crate) args: Cow<'a, Value>,
}

impl BeforeCall<'_> {
    /// The tool's spec as the set lists it.
    #[must_use]
    pub fn spec(&self) -> &ToolSpec {
        self.spec
    }

    /// The caller's context.
    #[must_use]
    pub fn ctx(&self) -> &ToolContext {
        self.ctx
    }

    /// The arguments.
    #[must_use]
    pub fn args(&self) -> &Value {
        &self.args
    }

    /// The arguments, to rewrite; copied from the caller's on first use.
    pub fn args_mut(&mut self) -> &mut Value {
        self.args.to_mut()
    }
}

/// What an after hook knows of the call that ran: the spec as listed and what the context
/// said of the caller (the context itself went to the tool).
#[derive(Debug, Clone)]
pub struct AfterCall<'a> {
    pub(crate) spec: &'a ToolSpec,
    pub(crate) caller: &'a Caller,
}

impl AfterCall<'_> {
    /// The tool's spec as the set lists it.
    #[must_use]
    pub fn spec(&self) -> &ToolSpec {
        self.spec
    }

    /// The caller.
    #[must_use]
    pub fn caller(&self) -> &Caller {
        self.caller
    }
}

/// The caller of a call, as its [`ToolContext`] described it, kept for after hooks.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Caller {
    /// [`ToolContext::action_id`].
    pub action_id: String,
    /// [`ToolContext::session_id`].
    pub session_id: Option<String>,
    /// [`ToolContext::attempt`].
    pub attempt: u32,
}

impl Caller {
    pub(crate) fn of(ctx: &ToolContext) -> Self {
        Self {
            action_id: ctx.action_id().to_owned(),
            session_id: ctx.session_id().map(str::to_owned),
            attempt: ctx.attempt(),
        }
    }
}

/// Runs before every call of a visible tool, in the order hooks were added. `Err` refuses the
/// call with that failure (no later hook and no tool runs); a hook may rewrite the arguments
/// through [`BeforeCall::args_mut`].
///
/// Closures `Fn(&mut BeforeCall<'_>) -> Result<(), ToolFailure>` are before hooks.
pub trait BeforeHook: Send + Sync + 'static {
    /// Inspects, rewrites or refuses the call.
    ///
    /// # Errors
    /// The failure the call answers with instead of running.
    fn before(&self, call: &mut BeforeCall<'_>) -> Result<(), ToolFailure>;
}

impl<F> BeforeHook for F
where
    F: Fn(&mut BeforeCall<'_>) -> Result<(), ToolFailure> + Send + Sync + 'static,
{
    fn before(&self, call: &mut BeforeCall<'_>) -> Result<(), ToolFailure> {
        self(call)
    }
}

/// Runs after every call that ran (a refused call included: its refusal is the outcome), in
/// the order hooks were added; each sees the outcome the previous one left and may rewrite it.
///
/// Closures `Fn(&AfterCall<'_>, &mut Result<ToolExecution, ToolFailure>)` are after hooks.
pub trait AfterHook: Send + Sync + 'static {
    /// Inspects or rewrites the outcome.
    fn after(&self, call: &AfterCall<'_>, outcome: &mut Result<ToolExecution, ToolFailure>);
}

impl<F> AfterHook for F
where
    F: Fn(&AfterCall<'_>, &mut Result<ToolExecution, ToolFailure>) + Send + Sync + 'static,
{
    fn after(&self, call: &AfterCall<'_>, outcome: &mut Result<ToolExecution, ToolFailure>) {
        self(call, outcome);
    }
}
