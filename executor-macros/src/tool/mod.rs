//! The `#[tool]` family: `#[tool]` on a free function, `#[tools]` on an inherent impl block
//! and `toolset![…]`. Each runs the stages of `failure/`: `parse` (syntax, with spans) →
//! `model` (the typed tool: parameters as injected context or decoded arguments, return type
//! as unit, infallible (any other type) or result) → `check` (the rules, run on the model) →
//! `expand` (the items; a tool's spec in `spec`, its call in `call`). `fallback` is what is
//! emitted next to the errors, through `diag::handle_errors`.

mod call;
mod check;
mod expand;
mod fallback;
mod model;
mod parse;
mod schema;
mod spec;
#[cfg(test)]
mod tests;
mod types;

use proc_macro2::TokenStream;
use syn::Item;

use crate::diag::{self, Errors, Fallback};
use model::{Site, ToolFn, ToolsImpl};
use parse::{ToolAttr, ToolsetInput};

/// `#[tool]`. On error the user's function is emitted (parameter attributes removed) next to
/// the errors and a stand-in tool (`fallback`).
pub fn tool(args: TokenStream, input: TokenStream) -> TokenStream {
    diag::handle_errors(Fallback::Items(input.clone()), |on_error| {
        let item: Item = syn::parse2(input)?;
        let Item::Fn(mut func) = item else {
            return Err(syn::Error::new_spanned(
                diag::item_keyword(&item),
                "#[tool] goes on a function; write `#[tool] async fn name(arg: Type) -> Output`, or mark an `impl` block `#[tools]`",
            ));
        };
        let mut errors = Errors::default();
        if let Err(e) = func.modifiers.require_empty() {
            errors.push(e);
        }
        let attr = ToolAttr::parse(args, &mut errors);
        let model = ToolFn::from_syn(attr, &func.attrs, &mut func.sig, Site::Free, &mut errors);
        *on_error = Fallback::Items(if func.sig.receiver().is_some() {
            fallback::tool_method(&func)
        } else {
            fallback::tool_fn(&func, &model.krate)
        });
        check::check_fn(&model, &mut errors);
        errors.finish()?;
        Ok(expand::expand_fn(&model, &func))
    })
}

/// `#[tools]`. On error the impl block is emitted (`#[tool]` and parameter attributes
/// removed) next to the errors and a stand-in executor impl (`fallback`).
pub fn tools(args: TokenStream, input: TokenStream) -> TokenStream {
    diag::handle_errors(Fallback::Items(input.clone()), |on_error| {
        let item: Item = syn::parse2(input)?;
        let Item::Impl(mut block) = item else {
            return Err(syn::Error::new_spanned(
                diag::item_keyword(&item),
                "#[tools] goes on an inherent `impl` block whose methods are marked #[tool]; for a free function write #[tool]",
            ));
        };
        let mut errors = Errors::default();
        let model = ToolsImpl::from_syn(args, &mut block, &mut errors);
        *on_error = Fallback::Items(fallback::tools_impl(&block, &model.krate));
        check::check_tools(&model, &block, &mut errors);
        errors.finish()?;
        Ok(expand::expand_tools(&model, &block))
    })
}

/// `toolset![…]`. On error an empty set is built next to the errors.
pub fn toolset(input: TokenStream) -> TokenStream {
    let krate = parse::toolset_crate_lenient(input.clone());
    diag::handle_errors(Fallback::Expr(fallback::tool_set(&krate)), |_| {
        let input: ToolsetInput = syn::parse2(input)?;
        let paths: Vec<&syn::Path> = input.tools.iter().collect();
        let mut errors = Errors::default();
        check::check_toolset_paths(&paths, &mut errors);
        errors.finish()?;
        Ok(expand::expand_toolset(&input.krate, &paths))
    })
}
