//! Procedural macros for [`tool-executor`](https://docs.rs/tool-executor): `#[tool]`,
//! `#[tools]`, `toolset!`, `#[prompt]`, `#[prompts]`, `#[resource]`, `#[resources]`,
//! `#[derive(ToolFailure)]`, `#[derive(Form)]`,
//! `agent_executor!` and `#[agent]`. Depend on
//! `tool-executor`, which re-exports them and pins this crate exactly; generated code reaches
//! the runtime through `::tool_executor::__private` (or the `crate = …` override).

// Allowed as in thiserror and serde_derive: syn values are passed by value through the pipeline.
#![allow(clippy::needless_pass_by_value, clippy::module_name_repetitions)]

mod agent;
mod attr;
mod catalog_block;
mod catalog_fn;
mod diag;
mod failure;
mod form;
mod krate;
mod prompt;
mod resource;
#[cfg(test)]
mod snapshot;
mod tool;
mod util;

use proc_macro::TokenStream;

// Every macro is one function of its module, named like the macro, ending through
// `diag::handle_errors`.

// The user docs of each macro are in `docs/*.md`: IDEs and docs.rs show them on the macro, and
// their examples run as doctests here (tool-executor is a dev-dependency, as tokio is of
// tokio-macros).

#[doc = include_str!("../docs/tool.md")]
#[proc_macro_attribute]
pub fn tool(args: TokenStream, item: TokenStream) -> TokenStream {
    tool::tool(args.into(), item.into()).into()
}

#[doc = include_str!("../docs/tools.md")]
#[proc_macro_attribute]
pub fn tools(args: TokenStream, item: TokenStream) -> TokenStream {
    tool::tools(args.into(), item.into()).into()
}

#[doc = include_str!("../docs/toolset.md")]
#[proc_macro]
pub fn toolset(input: TokenStream) -> TokenStream {
    tool::toolset(input.into()).into()
}

#[doc = include_str!("../docs/tool_failure.md")]
#[proc_macro_derive(ToolFailure, attributes(failure))]
pub fn derive_tool_failure(input: TokenStream) -> TokenStream {
    failure::derive_tool_failure(input.into()).into()
}

#[doc = include_str!("../docs/form.md")]
#[proc_macro_derive(Form, attributes(form))]
pub fn derive_form(input: TokenStream) -> TokenStream {
    form::derive_form(input.into()).into()
}

#[doc = include_str!("../docs/agent_executor.md")]
#[proc_macro]
pub fn agent_executor(input: TokenStream) -> TokenStream {
    agent::agent_executor(input.into()).into()
}

#[doc = include_str!("../docs/agent.md")]
#[proc_macro_attribute]
pub fn agent(args: TokenStream, item: TokenStream) -> TokenStream {
    agent::agent(args.into(), item.into()).into()
}

#[doc = include_str!("../docs/prompt.md")]
#[proc_macro_attribute]
pub fn prompt(args: TokenStream, item: TokenStream) -> TokenStream {
    prompt::prompt(args.into(), item.into()).into()
}

#[doc = include_str!("../docs/resource.md")]
#[proc_macro_attribute]
pub fn resource(args: TokenStream, item: TokenStream) -> TokenStream {
    resource::resource(args.into(), item.into()).into()
}

#[doc = include_str!("../docs/prompts.md")]
#[proc_macro_attribute]
pub fn prompts(args: TokenStream, item: TokenStream) -> TokenStream {
    prompt::prompts(args.into(), item.into()).into()
}

#[doc = include_str!("../docs/resources.md")]
#[proc_macro_attribute]
pub fn resources(args: TokenStream, item: TokenStream) -> TokenStream {
    resource::resources(args.into(), item.into()).into()
}
