//! Error accumulation (serde's `Ctxt`) and the one ending of every macro ([`handle_errors`],
//! bon's `with_fallback`, thiserror's `try_expand`): report every mistake in one pass, and on
//! error emit the user's item (or the macro's fallback) next to the errors.

use proc_macro2::TokenStream;
use quote::{ToTokens, quote};
use syn::Item;

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

    /// Pushes the error of a fallible step, if any, and goes on.
    pub fn report<T>(&mut self, result: syn::Result<T>) -> Option<T> {
        result.map_err(|e| self.push(e)).ok()
    }

    /// Every error pushed so far, if any.
    pub fn finish(self) -> syn::Result<()> {
        self.0.map_or(Ok(()), Err)
    }

    /// Ends a stage that built `value`: the value when nothing went wrong, else every error
    /// (those pushed, then the one that stopped `value`, if it did). A stage that has no value
    /// carries its reason as the `Err`, so "no value and no error" cannot happen.
    pub fn finish_with<T>(self, value: syn::Result<T>) -> syn::Result<T> {
        match (self.0, value) {
            (None, value) => value,
            (Some(mut all), Err(last)) => {
                all.combine(last);
                Err(all)
            }
            (Some(all), Ok(_)) => Err(all),
        }
    }
}

/// What a macro emits when its pipeline fails: the user's item (or, for a function-like macro,
/// nothing) plus whatever stub impls keep later code from producing second errors. The
/// pipeline replaces it as it learns more (a parsed item, its `crate` path).
pub enum Fallback {
    /// Items: the errors are emitted after them.
    Items(TokenStream),
    /// An expression (`toolset!`): the errors go in a block before it, so the output is still
    /// one expression, of the type later code expects.
    Expr(TokenStream),
}

impl Fallback {
    /// The fallback followed by the errors.
    fn with_errors(self, error: &syn::Error) -> TokenStream {
        let errors = error.to_compile_error();
        match self {
            Self::Items(items) => quote!(#items #errors),
            Self::Expr(expr) => quote!({ #errors #expr }),
        }
    }
}

/// The one ending of every macro: runs `pipeline`, which returns the expansion or at least one
/// error (a `syn::Error` is never empty), and on error emits the fallback as the pipeline last
/// set it, followed by every error. `fallback` is what to emit if the pipeline fails before
/// setting one: the user's item, unparsed, for an attribute macro; nothing for a derive (rustc
/// keeps the item); the empty set's expression for `toolset!`.
pub fn handle_errors(
    fallback: Fallback,
    pipeline: impl FnOnce(&mut Fallback) -> syn::Result<TokenStream>,
) -> TokenStream {
    let mut fallback = fallback;
    match pipeline(&mut fallback) {
        Ok(expansion) => expansion,
        Err(error) => fallback.with_errors(&error),
    }
}

/// The token to blame when an attribute is on the wrong kind of item: its keyword (`struct`,
/// `fn`, `impl`, …), or the whole item when it has none.
pub fn item_keyword(item: &Item) -> TokenStream {
    match item {
        Item::Struct(s) => s.struct_token.into_token_stream(),
        Item::Enum(e) => e.enum_token.into_token_stream(),
        Item::Union(u) => u.union_token.into_token_stream(),
        Item::Fn(f) => f.sig.fn_token.into_token_stream(),
        Item::Impl(i) => i.impl_token.into_token_stream(),
        Item::Mod(m) => m.mod_token.into_token_stream(),
        Item::Trait(t) => t.trait_token.into_token_stream(),
        Item::Const(c) => c.const_token.into_token_stream(),
        Item::Static(s) => s.static_token.into_token_stream(),
        Item::Type(t) => t.type_token.into_token_stream(),
        other => other.into_token_stream(),
    }
}
