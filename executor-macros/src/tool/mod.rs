//! The `#[tool]` family: `#[tool]` on a free function, `#[tools]` on an inherent impl block
//! and `toolset![…]`. Each runs the stages of `failure/`: `parse` (syntax, with spans) →
//! `model` (the typed, checked tool: parameters as injected context or decoded arguments,
//! return type as unit, infallible (any other type) or result) → `check` (rules across nodes) → `expand` (the items;
//! a tool's spec in `spec`, its call in `call`). `fallback` is what is emitted on error.

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
use quote::{ToTokens, quote};
use syn::Item;

use crate::diag::{self, Errors};
use model::{Site, ToolFn, ToolsImpl};
use parse::{ToolAttr, ToolsetInput};

/// `#[tool]`. Never fails: on error the user's function is emitted (parameter attributes
/// removed) next to the errors and a stand-in tool (`fallback`).
pub fn expand_fn(args: TokenStream, input: TokenStream) -> TokenStream {
    let item: Item = match syn::parse2(input.clone()) {
        Ok(item) => item,
        Err(e) => return diag::with_item(input, &e),
    };
    let Item::Fn(mut func) = item else {
        let e = syn::Error::new_spanned(
            item_keyword(&item),
            "#[tool] goes on a function; write `#[tool] async fn name(arg: Type) -> Output`, or mark an `impl` block `#[tools]`",
        );
        return diag::with_item(item, &e);
    };
    let mut errors = Errors::default();
    if let Err(e) = func.modifiers.require_empty() {
        errors.push(e);
    }
    let attr = ToolAttr::parse(args, &mut errors);
    let krate = attr.krate.as_ref().map(|(k, _)| k.clone());
    let model = ToolFn::from_syn(attr, &func.attrs, &mut func.sig, Site::Free, &mut errors);
    match (errors.finish(), model) {
        (Ok(()), Some(model)) => expand::expand_fn(&model, &func),
        (Err(e), _) => fallback::tool_fn(&func, &krate.unwrap_or_default(), &e),
        (Ok(()), None) => func.into_token_stream(),
    }
}

/// `#[tools]`. Never fails: on error the impl block is emitted next to the errors and a
/// stand-in executor impl (`fallback`).
pub fn expand_tools(args: TokenStream, input: TokenStream) -> TokenStream {
    let item: Item = match syn::parse2(input.clone()) {
        Ok(item) => item,
        Err(e) => return diag::with_item(input, &e),
    };
    let Item::Impl(mut block) = item else {
        let e = syn::Error::new_spanned(
            &item,
            "#[tools] goes on an inherent `impl` block whose methods are marked #[tool]; for a free function write #[tool]",
        );
        return diag::with_item(item, &e);
    };
    let mut errors = Errors::default();
    let model = ToolsImpl::from_syn(args, &mut block, &mut errors);
    match errors.finish() {
        Ok(()) => expand::expand_tools(&model, &block),
        Err(e) if block.trait_.is_some() => diag::with_item(&block, &e),
        Err(e) => fallback::tools_impl(&block, &model.krate, &e),
    }
}

/// `toolset![…]`. Never fails: on error an empty set is built next to the errors.
pub fn expand_toolset(input: TokenStream) -> TokenStream {
    let input: ToolsetInput = match syn::parse2(input) {
        Ok(i) => i,
        Err(e) => return e.to_compile_error(),
    };
    let krate = &input.krate;
    let paths: Vec<&syn::Path> = input.tools.iter().collect();
    let mut errors = Errors::default();
    check::check_toolset_paths(&paths, &mut errors);
    match errors.finish() {
        Ok(()) => expand::expand_toolset(krate, &paths),
        Err(e) => {
            let error = e.to_compile_error();
            quote!({ #error #krate::__private::tool_set(&[]) })
        }
    }
}

/// The token to blame when `#[tool]` is on something other than a function.
fn item_keyword(item: &Item) -> TokenStream {
    match item {
        Item::Struct(s) => s.struct_token.into_token_stream(),
        Item::Enum(e) => e.enum_token.into_token_stream(),
        Item::Impl(i) => i.impl_token.into_token_stream(),
        Item::Mod(m) => m.mod_token.into_token_stream(),
        Item::Trait(t) => t.trait_token.into_token_stream(),
        Item::Const(c) => c.const_token.into_token_stream(),
        Item::Static(s) => s.static_token.into_token_stream(),
        Item::Type(t) => t.type_token.into_token_stream(),
        other => other.into_token_stream(),
    }
}
