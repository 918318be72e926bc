//! `#[prompt]`: a function as an MCP prompt. The stages of `tool/`: `parse` (the attribute's
//! keys) → the shared function model (`catalog_fn.rs`: parameters as arguments, docs as
//! descriptions, `Option` as not required) → `expand`. On error the function and a stand-in
//! `CatalogItem` are emitted next to the errors, so `catalog![it]` adds no second error.

mod expand;
mod parse;
#[cfg(test)]
mod tests;

use proc_macro2::TokenStream;
use syn::Item;

use crate::catalog_fn::{self, CatalogFn};
use crate::diag::{self, Errors, Fallback};
use parse::PromptAttr;

/// `#[prompt]`.
pub fn prompt(args: TokenStream, input: TokenStream) -> TokenStream {
    diag::handle_errors(Fallback::Items(input.clone()), |on_error| {
        let item: Item = syn::parse2(input)?;
        let Item::Fn(mut func) = item else {
            return Err(syn::Error::new_spanned(
                diag::item_keyword(&item),
                "#[prompt] goes on a function; write `#[prompt] fn name(arg: String) -> PromptMessage`",
            ));
        };
        let mut errors = Errors::default();
        let attr = PromptAttr::parse(args, &mut errors);
        let model = CatalogFn::from_syn(&mut func, "#[prompt]", &mut errors);
        // A method (inside an `impl` block) cannot take the struct beside it: the method alone.
        *on_error = Fallback::Items(if func.sig.receiver().is_some() {
            quote::ToTokens::to_token_stream(&func)
        } else {
            catalog_fn::items(&func, &attr.krate(), catalog_fn::Kind::Prompt, None)
        });
        catalog_fn::check_description(&model, "prompt", attr.description.is_some(), &mut errors);
        if let Some(name) = &attr.name
            && name.value().trim().is_empty()
        {
            errors.at(
                name.span(),
                "a prompt name cannot be empty; write a name such as `\"code_review\"`",
            );
        }
        errors.finish()?;
        Ok(expand::expand(&attr, &model, &func))
    })
}
