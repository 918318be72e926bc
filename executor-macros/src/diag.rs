//! Error accumulation (serde's `Ctxt`): report every bad attribute in one pass.

use proc_macro2::TokenStream;
use quote::ToTokens;

/// Collects `syn::Error`s; `finish` combines them.
#[derive(Default)]
pub struct Errors(Option<syn::Error>);

impl Errors {
    pub fn push(&mut self, error: syn::Error) {
        match &mut self.0 {
            Some(existing) => existing.combine(error),
            None => self.0 = Some(error),
        }
    }

    pub fn spanned(&mut self, tokens: impl ToTokens, message: impl std::fmt::Display) {
        self.push(syn::Error::new_spanned(tokens, message));
    }

    pub fn at(&mut self, span: proc_macro2::Span, message: impl std::fmt::Display) {
        self.push(syn::Error::new(span, message));
    }

    pub fn finish(self) -> syn::Result<()> {
        self.0.map_or(Ok(()), Err)
    }
}

/// On error an attribute macro emits the user's item next to the errors, so the rest of the
/// crate and the IDE keep working (tokio-macros).
pub fn with_item(item: impl ToTokens, error: &syn::Error) -> TokenStream {
    let mut out = item.to_token_stream();
    out.extend(error.to_compile_error());
    out
}
