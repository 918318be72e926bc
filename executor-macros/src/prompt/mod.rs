//! `#[prompt]`: a function as an MCP prompt; `#[prompts]`: the `&self` methods of an `impl`
//! block as prompts of its value. The stages of `tool/`: `parse` (the attribute's keys) → the
//! shared function model (`catalog_fn.rs`: parameters as arguments, docs as descriptions,
//! `Option` as not required, `&ToolContext` injected; a block's methods read by
//! `catalog_block.rs`) → `expand`. On error the function (or block) and a stand-in
//! `CatalogItem` (or `Prompts` impl) are emitted next to the errors, so `catalog![it]` adds no
//! second error.

mod expand;
mod parse;
#[cfg(test)]
mod tests;

use proc_macro2::TokenStream;
use syn::Item;

use crate::attr::Keys;
use crate::catalog_block::{self, BlockKind, BlockSteps};
use crate::catalog_fn::{self, CatalogFn, Site};
use crate::diag::{self, Errors, Fallback};
use parse::PromptAttr;

const WORDS: (&str, &str) = ("#[prompt]", "#[prompts]");

/// `#[prompt]`.
pub fn prompt(args: TokenStream, input: TokenStream) -> TokenStream {
    diag::handle_errors(Fallback::Items(input.clone()), |on_error| {
        let item: Item = syn::parse2(input)?;
        let Item::Fn(mut func) = item else {
            return Err(syn::Error::new_spanned(
                diag::item_keyword(&item),
                "#[prompt] goes on a function; write `#[prompt] fn name(arg: String) -> PromptMessage`, or mark an `impl` block `#[prompts]`",
            ));
        };
        let mut errors = Errors::default();
        if let Err(e) = func.modifiers.require_empty() {
            errors.push(e);
        }
        let attr = PromptAttr::parse(args, &mut errors);
        let model = CatalogFn::from_syn(&func.attrs, &mut func.sig, Site::Free, WORDS, &mut errors);
        // A method (inside an `impl` block) cannot take the struct beside it: the method alone.
        *on_error = Fallback::Items(if func.sig.receiver().is_some() {
            quote::ToTokens::to_token_stream(&func)
        } else {
            catalog_fn::items(&func, &attr.krate(), catalog_fn::Kind::Prompt, None)
        });
        check(&attr, &model, &mut errors);
        errors.finish()?;
        Ok(expand::expand(&attr, &model, &func))
    })
}

/// The rules of one prompt, fn or method.
fn check(attr: &PromptAttr, model: &CatalogFn, errors: &mut Errors) {
    catalog_fn::check_description(model, "prompt", attr.description.is_some(), errors);
    if let Some(name) = &attr.name
        && name.value().trim().is_empty()
    {
        errors.at(
            name.span(),
            "a prompt name cannot be empty; write a name such as `\"code_review\"`",
        );
    }
}

const BLOCK: BlockKind = BlockKind {
    method: "prompt",
    what: WORDS.0,
    block: WORDS.1,
    keys: Keys {
        what: "#[prompts]",
        keys: &["crate"],
    },
};

/// `#[prompts]`.
pub fn prompts(args: TokenStream, input: TokenStream) -> TokenStream {
    catalog_block::block_macro(args, input, &BLOCK, &STEPS)
}

const STEPS: BlockSteps<PromptAttr> = BlockSteps {
    method: |method, errors| {
        let attr = PromptAttr::parse(method.args.clone(), errors);
        check(&attr, &method.model, errors);
        let has_crate = attr.krate.is_some();
        (attr, has_crate)
    },
    across: |methods, read, errors| {
        let names: Vec<String> = read.iter().map(|(a, m)| expand::name(a, m)).collect();
        catalog_block::check_unique(methods, &names, &BLOCK, errors);
    },
    expand: expand::expand_block,
    fallback: expand::fallback_block,
};
