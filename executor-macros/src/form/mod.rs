//! `#[derive(Form)]`: a struct of primitives becomes an MCP form (`impl Form`: its fields'
//! schemas and the decoding of an answer); an enum of unit variants becomes a choice
//! (`impl FormChoice` and `impl FormField`).
//!
//! Named `Form` after what the user sees (MCP's "form mode"), not after the protocol verb:
//! the same type is asked over MCP, A2A and in tests.

mod check;
mod expand;
mod fallback;
mod model;
mod parse;

use proc_macro2::TokenStream;
use syn::DeriveInput;

use crate::diag::{self, Errors, Fallback};
use model::FormType;

/// Never fails: on error the errors are emitted next to stub impls (see `fallback`); rustc
/// keeps the type itself.
pub fn derive_form(input: TokenStream) -> TokenStream {
    diag::handle_errors(Fallback::Items(TokenStream::new()), |on_error| {
        let input: DeriveInput = syn::parse2(input)?;
        let krate = parse::crate_path_lenient(&input.attrs);
        *on_error = Fallback::Items(fallback::stubs(&input, &krate));
        let mut errors = Errors::default();
        let model = FormType::from_syn(&input, &mut errors);
        if let Ok(model) = &model {
            check::check_type(model, &mut errors);
        }
        let model = errors.finish_with(model)?;
        Ok(expand::expand(&model))
    })
}

#[cfg(test)]
mod tests;
