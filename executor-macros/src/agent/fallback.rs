//! What `agent_executor!` and `#[agent]` emit next to their errors (as `tool/fallback.rs` and
//! `failure/fallback.rs` do; `diag::handle_errors` adds the errors): the user's block, and
//! impls with the right signatures whose bodies never run, so code that serves the agent or
//! reads its card adds no second error.

use proc_macro2::TokenStream;
use quote::quote;

use super::expand::card_items;
use super::parse::ExecutorHead;
use crate::krate::CratePath;

// Input:  agent_executor!(Echo, execute: |ctx, queue| async { … }, cancle: …);
// Output: const _: () = { impl AgentExecutor for Echo { fn execute(…) { unreachable!() } } };
/// `agent_executor!` on error, once its type parsed: an impl whose body is never run, so uses
/// of the agent elsewhere do not add errors of their own (thiserror's fallback).
pub fn executor(head: &ExecutorHead) -> TokenStream {
    let runtime = head.krate.runtime();
    let items = executor_items(&head.generics, &head.self_ty);
    quote! {
        #[allow(unused_qualifications)] // every runtime path goes through `__rt` on purpose
        const _: () = {
            #runtime
            #items
        };
    }
}

/// The stand-in `AgentExecutor` impl, for inside a `const _` block that has `__rt`.
fn executor_items(generics: &syn::Generics, self_ty: &syn::Type) -> TokenStream {
    let (impl_generics, _, where_clause) = generics.split_for_impl();
    quote! {
        #[automatically_derived]
        impl #impl_generics __rt::a2a::AgentExecutor for #self_ty #where_clause {
            fn execute<'__executor>(
                &'__executor self,
                _: &'__executor __rt::a2a::RequestContext,
                _: &'__executor dyn __rt::a2a::EventQueueWriter,
            ) -> __rt::BoxFuture<'__executor, __rt::a2a::A2aResult<()>> {
                ::core::unreachable!()
            }
        }
    }
}

// Input:  #[agent(nmae = "Echo", …)] impl Echo { async fn execute(…) … }
// Output: impl Echo { async fn execute(…) … }
//         const _: () = { impl Echo { pub fn agent_card(…) } impl Agent for Echo { … }
//                         impl AgentExecutor for Echo { … } };   (every body `unreachable!()`)
/// `#[agent]` on error: the block as written, the fallback executor, and an `agent_card` and
/// `Agent` impl that are never run.
pub fn agent(block: &syn::ItemImpl, krate: &CratePath) -> TokenStream {
    let (generics, self_ty) = (&block.generics, &*block.self_ty);
    let runtime = krate.runtime();
    let executor = executor_items(generics, self_ty);
    let card = card_items(generics, self_ty, &quote!(::core::unreachable!()));
    quote! {
        #block

        #[allow(unused_qualifications)] // every runtime path goes through `__rt` on purpose
        const _: () = {
            #runtime
            #card
            #executor
        };
    }
}
