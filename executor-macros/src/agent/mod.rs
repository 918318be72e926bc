//! `agent_executor!` and `#[agent]`: implementations of the A2A server crate's `AgentExecutor`.

mod expand;
mod model;
mod parse;

use proc_macro2::TokenStream;
use quote::quote;
use syn::Item;

use crate::diag::{self, Errors};
use model::{AgentModel, ImplModel};
use parse::{AgentAttr, ExecutorInput};

/// `agent_executor!(…)`. Never fails: on error the errors are emitted with a fallback impl, so
/// uses of the agent elsewhere add no errors of their own.
pub fn expand_executor(input: TokenStream) -> TokenStream {
    let input: ExecutorInput = match syn::parse2(input) {
        Ok(input) => input,
        Err(e) => return e.to_compile_error(),
    };
    let mut errors = Errors::default();
    let model = ImplModel::from_input(&input, &mut errors);
    match (errors.finish(), model) {
        (Ok(()), Some(model)) => expand::expand_impl(&model),
        (Err(e), _) => {
            let fallback = expand::fallback_impl(&input.krate, &input.generics, &input.self_ty);
            let error = e.to_compile_error();
            quote!(#fallback #error)
        }
        (Ok(()), None) => TokenStream::new(),
    }
}

/// `#[agent(…)]` on an inherent impl block. Never fails: on error the impl block is emitted as
/// written, next to the errors and a fallback impl.
pub fn expand_agent(args: TokenStream, input: TokenStream) -> TokenStream {
    let item: Item = match syn::parse2(input.clone()) {
        Ok(item) => item,
        Err(e) => return diag::with_item(input, &e),
    };
    let Item::Impl(block) = item else {
        let e = syn::Error::new_spanned(
            item_keyword(&item),
            "#[agent] goes on an inherent `impl` block holding `async fn execute(&self, ctx, queue)`; \
             for a closure-style agent write `agent_executor!(Type, |ctx, queue| async { … })`",
        );
        return diag::with_item(item, &e);
    };
    let mut errors = Errors::default();
    let attr = AgentAttr::parse(args, &mut errors);
    let krate = attr.krate.clone().unwrap_or_default();
    let model = AgentModel::from_syn(attr, &block, &mut errors);
    match (errors.finish(), model) {
        (Ok(()), Some(model)) => expand::expand_agent(&model, &block),
        (result, _) => {
            let fallback = expand::fallback_agent(&krate, &block.generics, &block.self_ty);
            let mut out = quote!(#block #fallback);
            if let Err(e) = result {
                out.extend(e.to_compile_error());
            }
            out
        }
    }
}

/// The token to blame when `#[agent]` is on something other than an impl block.
fn item_keyword(item: &Item) -> TokenStream {
    use quote::ToTokens;
    match item {
        Item::Struct(s) => s.struct_token.into_token_stream(),
        Item::Enum(e) => e.enum_token.into_token_stream(),
        Item::Fn(f) => f.sig.fn_token.into_token_stream(),
        Item::Mod(m) => m.mod_token.into_token_stream(),
        Item::Trait(t) => t.trait_token.into_token_stream(),
        other => other.into_token_stream(),
    }
}

#[cfg(test)]
mod tests;
