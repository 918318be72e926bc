//! `#[resource]`: a function as an MCP resource (`uri = "…"`) or resource template
//! (`template = "notes://{id}"`, whose variables are the function's parameters, checked here).
//! `parse` → the shared function model (`catalog_fn.rs`) → `check` → `expand`; on error the
//! function and a stand-in `CatalogItem` (the prompt's fallback shape).

mod check;
mod expand;
mod parse;

use proc_macro2::TokenStream;
use syn::Item;

use crate::catalog_fn::{self, CatalogFn};
use crate::diag::{self, Errors, Fallback};
use parse::ResourceAttr;

/// `#[resource]`.
pub fn resource(args: TokenStream, input: TokenStream) -> TokenStream {
    diag::handle_errors(Fallback::Items(input.clone()), |on_error| {
        let item: Item = syn::parse2(input)?;
        let Item::Fn(mut func) = item else {
            return Err(syn::Error::new_spanned(
                diag::item_keyword(&item),
                "#[resource] goes on a function; write `#[resource(uri = \"docs://readme\")] fn readme() -> String`",
            ));
        };
        let mut errors = Errors::default();
        let attr = ResourceAttr::parse(args, &mut errors);
        let model = CatalogFn::from_syn(&mut func, "#[resource]", &mut errors);
        // A method (inside an `impl` block) cannot take the struct beside it: the method alone.
        *on_error = Fallback::Items(if func.sig.receiver().is_some() {
            quote::ToTokens::to_token_stream(&func)
        } else {
            catalog_fn::items(&func, &attr.krate(), catalog_fn::Kind::Resource, None)
        });
        catalog_fn::check_description(&model, "resource", attr.description.is_some(), &mut errors);
        let variables = check::check_uri(&attr, &model, &mut errors);
        errors.finish()?;
        Ok(expand::expand(&attr, &model, &func, variables.is_some()))
    })
}
