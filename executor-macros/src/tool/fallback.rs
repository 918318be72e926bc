//! What `#[tool]`, `#[tools]` and `toolset!` emit next to their errors (as
//! `failure/fallback.rs` does for the derive; `diag::handle_errors` adds the errors): the
//! user's item, plus the items other code names, with bodies that are never run. So
//! `toolset![that_tool]` or `ToolSet::builder().executor(that_service)` elsewhere add no
//! second error, and only the real mistake is reported.

use proc_macro2::TokenStream;
use quote::{ToTokens, quote};
use syn::{ItemFn, ItemImpl};

use crate::krate::CratePath;

// Input:  #[tool(name = "get weather")] fn weather(city: String) -> String { city }
// Output: fn weather(city: String) -> String { city }
//         struct weather {}
//         const _: () = {
//             impl weather { fn spec() … }
//             impl Tool for weather { /* every body `unreachable!()` */ }
//         };
pub fn tool_fn(func: &ItemFn, krate: &CratePath) -> TokenStream {
    let name = func.sig.ident.to_string();
    let name = name.trim_start_matches("r#");
    // Never run: the program does not compile.
    let spec_body = quote!(::core::unreachable!());
    let call_body = quote! {
        __rt::core::future::pending::<__rt::Result<__rt::ToolExecution, __rt::ToolFailure>>()
    };
    super::expand::tool_items(func, krate, name, &spec_body, &call_body, None)
}

// Input:  impl Counter { #[tool] async fn hit(&self, #[arg(default)] by: u64) -> u64 { by } }
// Output: async fn hit(&self, by: u64) -> u64 { by }
/// A method marked `#[tool]` in an `impl` block without `#[tools]`: the method alone, since
/// the struct and `const _` a tool adds cannot stand inside an `impl` block (rustc would
/// report each of them before the real mistake).
pub fn tool_method(func: &ItemFn) -> TokenStream {
    func.to_token_stream()
}

// Input:  #[tools] impl Counter { #[tool] fn bump(self) -> u64 { 1 } }
// Output: impl Counter { fn bump(self) -> u64 { 1 } }
//         const _: () = { impl ContextExecutor for Counter { /* `unreachable!()` */ } };
// A trait impl (which #[tools] rejects) is emitted alone: it is not the block users would
// mean to serve, and a stand-in executor could clash with the real one.
pub fn tools_impl(block: &ItemImpl, krate: &CratePath) -> TokenStream {
    if block.trait_.is_some() {
        return block.to_token_stream();
    }
    let methods = quote! {
        fn dispatch<'__executor>(
            &'__executor self,
            _: &'__executor str,
            _: &'__executor __rt::Value,
            _: __rt::ToolContext,
        ) -> __rt::BoxFuture<'__executor, __rt::Result<__rt::ToolExecution, __rt::ToolFailure>> {
            ::core::unreachable!()
        }
    };
    super::expand::executor_impl(block, &krate.runtime(), &methods)
}

// Input:  toolset![add, add]
// Output: { /* the errors */ ::tool_executor::__private::tool_set(&[]) }
/// The empty set, of the type `toolset!` has, for after its errors.
pub fn tool_set(krate: &CratePath) -> TokenStream {
    quote!(#krate::__private::tool_set(&[]))
}
