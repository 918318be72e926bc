//! `#[derive(ToolFailure)]`: `impl From<E> for ToolFailure` and the codes `E` can produce.

mod check;
mod expand;
mod fallback;
mod model;
mod parse;

use proc_macro2::TokenStream;
use syn::DeriveInput;

use crate::diag::{self, Errors, Fallback};
use model::FailureType;

/// Never fails: on error the errors are emitted next to stub impls (see `fallback`); rustc
/// keeps the type itself.
pub fn derive_tool_failure(input: TokenStream) -> TokenStream {
    diag::handle_errors(Fallback::Items(TokenStream::new()), |on_error| {
        let input: DeriveInput = syn::parse2(input)?;
        let krate = parse::crate_path_lenient(&input.attrs);
        *on_error = Fallback::Items(fallback::stubs(&input, &krate));
        let mut errors = Errors::default();
        let model = FailureType::from_syn(&input, &mut errors);
        if let Ok(model) = &model {
            check::check_type(model, &mut errors);
        }
        let model = errors.finish_with(model)?;
        Ok(expand::expand(&model))
    })
}

#[cfg(test)]
mod tests;
