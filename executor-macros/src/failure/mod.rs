//! `#[derive(ToolFailure)]`: `impl From<E> for ToolFailure` and the codes `E` can produce.

mod check;
mod expand;
mod fallback;
mod model;
mod parse;

use proc_macro2::TokenStream;
use syn::DeriveInput;

use crate::diag::Errors;
use model::Input;

/// Never fails: on error the attribute errors are emitted with stub impls (see `fallback`).
pub fn expand(input: TokenStream) -> TokenStream {
    let input: DeriveInput = match syn::parse2(input) {
        Ok(input) => input,
        Err(e) => return e.to_compile_error(),
    };
    match try_expand(&input) {
        Ok(tokens) => tokens,
        Err(e) => fallback::expand(&input, &parse::crate_path_lenient(&input.attrs), &e),
    }
}

fn try_expand(input: &DeriveInput) -> syn::Result<TokenStream> {
    let mut errors = Errors::default();
    let model = Input::from_syn(input, &mut errors);
    if let Some(model) = &model {
        check::check(model, &mut errors);
    }
    errors.finish()?;
    match model {
        Some(model) => Ok(expand::expand(&model)),
        None => Err(syn::Error::new_spanned(
            &input.ident,
            "#[derive(ToolFailure)] could not read this type",
        )),
    }
}

#[cfg(test)]
mod tests;
