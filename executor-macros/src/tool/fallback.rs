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
//         const _: () = { impl Tool for weather { /* every body `unreachable!()` */ } };
pub fn tool_fn(func: &ItemFn, krate: &CratePath, error: &syn::Error) -> TokenStream {
    let ident = &func.sig.ident;
    let vis = &func.vis;
    let name = ident.to_string();
    let name = name.trim_start_matches("r#");
    let error = error.to_compile_error();
    quote! {
        #func
        #error

        #[allow(non_camel_case_types, dead_code, missing_docs)] // stands in for the tool
        #vis struct #ident {}

        const _: () = {
            #[automatically_derived]
            impl #krate::Tool for #ident {
                const NAME: &'static str = #name;

                fn spec() -> &'static #krate::__private::Arc<#krate::ToolSpec> {
                    ::core::unreachable!()
                }

                fn call(
                    _: &#krate::__private::Value,
                    _: #krate::ToolContext,
                ) -> #krate::BoxFuture<'_, ::core::result::Result<#krate::ToolExecution, #krate::ToolFailure>> {
                    ::core::unreachable!()
                }
            }
        };
    }
}

pub fn tools_impl(block: &ItemImpl, krate: &CratePath, error: &syn::Error) -> TokenStream {
    let (impl_generics, _, where_clause) = block.generics.split_for_impl();
    let self_ty = &block.self_ty;
    let error = error.to_compile_error();
    quote! {
        #block
        #error

        const _: () = {
            #[automatically_derived]
            impl #impl_generics #krate::ToolExecutor for #self_ty #where_clause {
                fn execute<'__executor>(
                    &'__executor self,
                    _: &'__executor str,
                    _: &'__executor #krate::__private::Value,
                ) -> #krate::BoxFuture<'__executor, ::core::result::Result<#krate::__private::Value, ::std::string::String>> {
                    ::core::unreachable!()
                }
            }
        };
    }
}
