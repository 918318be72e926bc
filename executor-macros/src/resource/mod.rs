//! `#[resource]`: a function as an MCP resource (`uri = "…"`) or resource template
//! (`template = "notes://{id}"`, whose variables are the function's parameters, checked here);
//! `#[resources]`: the `&self` methods of an `impl` block as resources of its value.
//! `parse` → the shared function model (`catalog_fn.rs`; a block's methods read by
//! `catalog_block.rs`) → `check` → `expand`; on error the function and a stand-in
//! `CatalogItem` (the prompt's fallback shape), or the block and a stand-in `Resources` impl.

mod check;
mod expand;
mod parse;

use proc_macro2::TokenStream;
use syn::Item;

use crate::attr::Keys;
use crate::catalog_block::{self, BlockKind, BlockSteps};
use crate::catalog_fn::{self, CatalogFn, Site};
use crate::diag::{self, Errors, Fallback};
use parse::ResourceAttr;

const WORDS: (&str, &str) = ("#[resource]", "#[resources]");

/// `#[resource]`.
pub fn resource(args: TokenStream, input: TokenStream) -> TokenStream {
    diag::handle_errors(Fallback::Items(input.clone()), |on_error| {
        let item: Item = syn::parse2(input)?;
        let Item::Fn(mut func) = item else {
            return Err(syn::Error::new_spanned(
                diag::item_keyword(&item),
                "#[resource] goes on a function; write `#[resource(uri = \"docs://readme\")] fn readme() -> String`, or mark an `impl` block `#[resources]`",
            ));
        };
        let mut errors = Errors::default();
        if let Err(e) = func.modifiers.require_empty() {
            errors.push(e);
        }
        let attr = ResourceAttr::parse(args, &mut errors);
        let model = CatalogFn::from_syn(&func.attrs, &mut func.sig, Site::Free, WORDS, &mut errors);
        // A method (inside an `impl` block) cannot take the struct beside it: the method alone.
        *on_error = Fallback::Items(if func.sig.receiver().is_some() {
            quote::ToTokens::to_token_stream(&func)
        } else {
            catalog_fn::items(&func, &attr.krate(), catalog_fn::Kind::Resource, None)
        });
        let variables = check(&attr, &model, &mut errors);
        errors.finish()?;
        Ok(expand::expand(&attr, &model, &func, variables))
    })
}

/// The rules of one resource, fn or method; whether its template is valid.
fn check(attr: &ResourceAttr, model: &CatalogFn, errors: &mut Errors) -> bool {
    catalog_fn::check_description(model, "resource", attr.description.is_some(), errors);
    check::check_uri(attr, model, errors).is_some()
}

const BLOCK: BlockKind = BlockKind {
    method: "resource",
    what: WORDS.0,
    block: WORDS.1,
    keys: Keys {
        what: "#[resources]",
        keys: &["crate"],
    },
};

/// `#[resources]`.
pub fn resources(args: TokenStream, input: TokenStream) -> TokenStream {
    catalog_block::block_macro(args, input, &BLOCK, &STEPS)
}

const STEPS: BlockSteps<(ResourceAttr, bool)> = BlockSteps {
    method: |method, errors| {
        let mut attr = ResourceAttr::parse(method.args.clone(), errors);
        // "No address" points at the method's attribute, as it does at a fn's.
        if method.args.is_empty() {
            attr.span = Some(syn::spanned::Spanned::span(method.attr.path()));
        }
        let template = check(&attr, &method.model, errors);
        let has_crate = attr.krate.is_some();
        ((attr, template), has_crate)
    },
    across: |_, _, _| {},
    expand: expand::expand_block,
    fallback: expand::fallback_block,
};
