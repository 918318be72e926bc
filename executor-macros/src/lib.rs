//! Procedural macros for [`executor-core`](https://docs.rs/executor-core). Depend on
//! `executor-core`, which re-exports them; generated code reaches the runtime through
//! `::executor_core::__private` (or the `crate = …` override).

// Allowed as in thiserror and serde_derive: syn values are passed by value through the pipeline.
#![allow(clippy::needless_pass_by_value, clippy::module_name_repetitions)]

mod agent;
mod attr;
mod diag;
mod failure;
mod krate;
#[cfg(test)]
mod snapshot;
mod tool;
mod util;

use proc_macro::TokenStream;

/// Makes a function a tool: see the `executor-core` crate docs.
///
/// Keys: `name = "…"`, `title = "…"`, `description = "…"`, `read_only`, `destructive`,
/// `idempotent`, `open_world` (each optionally `= false`), `timeout = "5s"`, `crate = path`.
/// Parameters take `#[arg(default)]`, `#[arg(default = expr)]`, `#[arg(rename = "…")]`,
/// `#[arg(description = "…")]` and doc comments.
#[proc_macro_attribute]
pub fn tool(args: TokenStream, item: TokenStream) -> TokenStream {
    tool::expand_fn(args.into(), item.into()).into()
}

/// Makes the `#[tool]` methods of an inherent impl block the tools of a `ToolExecutor`.
#[proc_macro_attribute]
pub fn tools(args: TokenStream, item: TokenStream) -> TokenStream {
    tool::expand_tools(args.into(), item.into()).into()
}

/// Builds a `ToolSet` from free-fn tools: `toolset![add, math::divide]`. Two tools with one
/// name are a compile error.
#[proc_macro]
pub fn toolset(input: TokenStream) -> TokenStream {
    tool::expand_toolset(input.into()).into()
}

/// Derives `From<E> for ToolFailure` and `FailureCodes` for an error enum or struct: see the
/// `executor-core` crate docs ("Typed failures") for the keys and the failure table.
#[proc_macro_derive(ToolFailure, attributes(failure))]
pub fn derive_tool_failure(input: TokenStream) -> TokenStream {
    failure::expand(input.into()).into()
}

/// Implements the A2A server crate's `AgentExecutor` for a type from closures: the seed
/// crate's forms `agent_executor!(Ty, |ctx, queue| async { … })` and
/// `agent_executor!(Ty, execute: |ctx, queue| async { … }, cancel: |ctx, queue| async { … })`,
/// plus `async move`, trailing commas, `on_shutdown: || async { … }`, `self` in the bodies,
/// `impl<T: Bound> Ty<T> where …` generics and `crate = ::path;` first.
#[proc_macro]
pub fn agent_executor(input: TokenStream) -> TokenStream {
    agent::expand_executor(input.into()).into()
}

/// Makes an inherent impl block's `async fn execute(&self, ctx, queue)` (and optional
/// `cancel`, `on_shutdown`) an A2A `AgentExecutor`, and gives the type `agent_card(url)`.
///
/// Keys: `name`, `description` (default: the doc comment), `version` (default: the crate's),
/// `provider(organization = "…", url = "…")`, `documentation_url`, `icon_url`, `streaming`,
/// `push_notifications`, `input_modes = […]`, `output_modes = […]`,
/// `skill(id = "…", name, description, tags = […], examples = […], input_modes, output_modes)`
/// (one or more), `crate = path`.
#[proc_macro_attribute]
pub fn agent(args: TokenStream, item: TokenStream) -> TokenStream {
    agent::expand_agent(args.into(), item.into()).into()
}
