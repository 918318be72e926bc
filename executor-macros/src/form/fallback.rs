//! What the derive emits when the input is wrong (thiserror's `fallback.rs`): impls with the
//! right signatures, next to the errors, so code that asks for the type still type-checks and
//! only the mistake is reported.

use proc_macro2::TokenStream;
use quote::quote;
use syn::{Data, DeriveInput};

use crate::krate::CratePath;

// Input:  #[derive(Form)] struct S { api_key: String }
// Output: const _: () = { impl Form for S { fn fields() -> … { unreachable!() } … } };
// (`diag::handle_errors` adds the errors after them.) A choice enum gets `FormChoice` and
// `FormField` stubs instead; a generic type or a union gets nothing (no impl could be written).
pub fn stubs(input: &DeriveInput, krate: &CratePath) -> TokenStream {
    if !input.generics.params.is_empty() {
        return TokenStream::new();
    }
    let ident = &input.ident;
    let runtime = krate.runtime();
    let body = match &input.data {
        Data::Struct(_) => quote! {
            #[automatically_derived]
            impl __rt::Form for #ident {
                fn fields() -> __rt::Vec<__rt::Field> {
                    ::core::unreachable!()
                }
                fn from_answers(
                    _: &__rt::Answers<'_>,
                ) -> __rt::Result<Self, __rt::FormError> {
                    ::core::unreachable!()
                }
            }
        },
        Data::Enum(_) => quote! {
            #[automatically_derived]
            impl __rt::FormChoice for #ident {
                const CHOICES: &'static [(&'static str, &'static str)] = &[];
                fn from_index(_: usize) -> __rt::Option<Self> {
                    ::core::unreachable!()
                }
                fn index(&self) -> usize {
                    ::core::unreachable!()
                }
            }
            #[automatically_derived]
            impl __rt::FormField for #ident {
                type Plain = Self;
                fn schema() -> __rt::Map<__rt::String, __rt::Value> {
                    ::core::unreachable!()
                }
                fn decode(_: __rt::Option<&__rt::Value>) -> __rt::Result<Self, __rt::String> {
                    ::core::unreachable!()
                }
                fn plain_json(_: &Self) -> __rt::Value {
                    ::core::unreachable!()
                }
            }
        },
        Data::Union(_) => return TokenStream::new(),
    };
    quote! {
        #[allow(unused_qualifications)] // every runtime path goes through `__rt` on purpose
        const _: () = {
            #runtime
            #body
        };
    }
}
