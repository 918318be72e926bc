//! What `#[tool]` and `#[tools]` emit next to their errors (as `failure/fallback.rs` does for
//! the derive): the user's item, plus the items other code names, with bodies that are never
//! run. So `toolset![that_tool]` or `ToolSet::builder().executor(that_service)` elsewhere add
//! no second error, and only the real mistake is reported.

use proc_macro2::TokenStream;
use quote::quote;
use syn::{ItemFn, ItemImpl};

use crate::krate::CratePath;

// Input:  #[tool(name = "get weather")] fn weather(city: String) -> String { city }
// Output: fn weather(city: String) -> String { city }
//         compile_error!("invalid tool name `get weather`; …");
//         struct weather {}
//         const _: () = {
//             impl weather { fn spec() … }
//             impl Tool for weather { /* every body `unreachable!()` */ }
//         };
pub fn tool_fn(func: &ItemFn, krate: &CratePath, error: &syn::Error) -> TokenStream {
    let name = func.sig.ident.to_string();
    let name = name.trim_start_matches("r#");
    // Never run: the program does not compile.
    let spec_body = quote!(::core::unreachable!());
    let call_body = quote! {
        __rt::core::future::pending::<__rt::Result<__rt::ToolExecution, __rt::ToolFailure>>()
    };
    let mut out = super::expand::tool_items(func, krate, name, &spec_body, &call_body, None);
    out.extend(error.to_compile_error());
    out
}

pub fn tools_impl(block: &ItemImpl, krate: &CratePath, error: &syn::Error) -> TokenStream {
    let (impl_generics, _, where_clause) = block.generics.split_for_impl();
    let self_ty = &block.self_ty;
    let runtime = krate.runtime();
    let error = error.to_compile_error();
    quote! {
        #block
        #error

        #[allow(unused_qualifications)] // every runtime path goes through `__rt` on purpose
        const _: () = {
            #runtime

            #[automatically_derived]
            impl #impl_generics __rt::ContextExecutor for #self_ty #where_clause {
                fn dispatch<'__executor>(
                    &'__executor self,
                    _: &'__executor str,
                    _: &'__executor __rt::Value,
                    _: __rt::ToolContext,
                ) -> __rt::BoxFuture<'__executor, __rt::Result<__rt::ToolExecution, __rt::ToolFailure>> {
                    ::core::unreachable!()
                }
            }
        };
    }
}
