//! `#[derive(ToolFailure)]`: `impl From<E> for ToolFailure` and the codes `E` can produce.

mod check;
mod expand;
mod fallback;
mod model;
mod parse;

use proc_macro2::TokenStream;
use syn::DeriveInput;

use crate::diag::{self, Errors, Fallback};
use model::Input;

/// Never fails: on error the errors are emitted next to stub impls (see `fallback`); rustc
/// keeps the type itself.
pub fn expand(input: TokenStream) -> TokenStream {
    diag::handle_errors(Fallback::Items(TokenStream::new()), |fallback| {
        let input: DeriveInput = syn::parse2(input)?;
        let krate = parse::crate_path_lenient(&input.attrs);
        *fallback = Fallback::Items(fallback::stubs(&input, &krate));
        let mut errors = Errors::default();
        let model = Input::from_syn(&input, &mut errors);
        if let Ok(model) = &model {
            check::check(model, &mut errors);
        }
        let model = errors.finish_with(model)?;
        Ok(expand::expand(&model))
    })
}

#[cfg(test)]
mod tests;
