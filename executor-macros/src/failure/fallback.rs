//! What the derive emits when an attribute is wrong (thiserror's `fallback.rs`): impls with
//! the right signatures, next to the errors, so code that converts the type or lists its codes
//! still type-checks and only the attribute is reported.

use proc_macro2::TokenStream;
use quote::quote;
use syn::DeriveInput;

use crate::krate::CratePath;

// Input:  #[derive(ToolFailure)] enum E { #[failure(retyr = "1s")] A }
// Output: const _: () = {
//             impl From<E> for ToolFailure { fn from(_: E) -> Self { unreachable!() } }
//             impl FailureCodes for E { const FAILURE_CODES: &[&str] = &[]; }
//         };
// (`diag::handle_errors` adds the errors after them.)
pub fn stubs(input: &DeriveInput, krate: &CratePath) -> TokenStream {
    let ident = &input.ident;
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    let runtime = krate.runtime();
    quote! {
        #[allow(unused_qualifications)] // every runtime path goes through `__rt` on purpose
        const _: () = {
            #runtime
            #[automatically_derived]
                        impl #impl_generics ::core::convert::From<#ident #ty_generics> for __rt::ToolFailure #where_clause {
                fn from(_: #ident #ty_generics) -> Self {
                    ::core::unreachable!()
                }
            }

            #[automatically_derived]
                        impl #impl_generics __rt::FailureCodes for #ident #ty_generics #where_clause {
                const FAILURE_CODES: &'static [&'static str] = &[];
            }
        };
    }
}
