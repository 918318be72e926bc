//! `agent_executor!` and `#[agent]`: implementations of the A2A server crate's
//! `AgentExecutor`. Both run the stages of `failure/` and `tool/`: `parse` (syntax, with
//! spans) → `model` (the hooks and where their bodies come from, and the card) → `check` (the
//! rules) → `expand`. `fallback` is what is emitted next to the errors, through
//! `diag::handle_errors`.

mod check;
mod expand;
mod fallback;
mod model;
mod parse;

use proc_macro2::TokenStream;
use syn::Item;

use crate::diag::{self, Errors, Fallback};
use model::{AgentModel, Card, ImplModel};
use parse::{AgentAttr, ExecutorHead, ExecutorInput};

/// `agent_executor!(…)`. On error, once the type parsed, the errors are emitted with a fallback
/// impl, so uses of the agent elsewhere add no errors of their own.
pub fn agent_executor(input: TokenStream) -> TokenStream {
    let stubs = ExecutorHead::parse_lenient(input.clone())
        .map_or_else(TokenStream::new, |head| fallback::executor(&head));
    diag::handle_errors(Fallback::Items(stubs), |_| {
        let input: ExecutorInput = syn::parse2(input)?;
        let mut errors = Errors::default();
        let model = ImplModel::from_input(&input, &mut errors);
        check::check_executor(&input, &mut errors);
        let model = errors.finish_with(model)?;
        Ok(expand::expand_impl(&model))
    })
}

/// `#[agent(…)]` on an inherent impl block. On error the impl block is emitted as written,
/// next to the errors and a fallback impl.
pub fn agent(args: TokenStream, input: TokenStream) -> TokenStream {
    diag::handle_errors(Fallback::Items(input.clone()), |on_error| {
        let item: Item = syn::parse2(input)?;
        let Item::Impl(block) = item else {
            return Err(syn::Error::new_spanned(
                diag::item_keyword(&item),
                "#[agent] goes on an inherent `impl` block holding `async fn execute(&self, ctx, queue)`; \
                 for a closure-style agent write `agent_executor!(Type, |ctx, queue| async { … })`",
            ));
        };
        let mut errors = Errors::default();
        let attr = AgentAttr::parse(args, &mut errors);
        let krate = attr.krate.clone().unwrap_or_default();
        *on_error = Fallback::Items(fallback::agent(&block, &krate));
        if let Some((path, _)) = &block.trait_ {
            // The hooks of a trait impl are the trait's: no rule below applies.
            return errors.finish_with(Err(syn::Error::new_spanned(
                path,
                "#[agent] goes on an inherent `impl Type` block, not a trait impl",
            )));
        }
        let imp = ImplModel::from_block(&attr, &block);
        let card = Card::from_attr(&attr, &block, &mut errors);
        check::check_agent(&attr, &block, &card, &mut errors);
        let imp = errors.finish_with(imp)?;
        Ok(expand::expand_agent(&AgentModel { imp, card }, &block))
    })
}

#[cfg(test)]
mod tests;
