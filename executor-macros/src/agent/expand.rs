//! Code generation for `agent_executor!` and `#[agent]`. Infallible: the model is checked.

use proc_macro2::{Span, TokenStream};
use quote::{ToTokens, format_ident, quote, quote_spanned};
use syn::spanned::Spanned;

use super::model::{AgentModel, Card, Hook, ImplModel, Skill, method_span};
use crate::krate::CratePath;

// Input:
//     agent_executor!(Echo, |ctx, queue| async { … });
// Output:
//     const _: () = {
//         impl ::executor_core::agent::AgentExecutor for Echo {
//             fn execute<'__executor>(&'__executor self, __executor_ctx: &'__executor RequestContext,
//                                     __executor_queue: &'__executor dyn EventQueueWriter)
//                 -> BoxFuture<'__executor, A2aResult<()>> {
//                 run_execute(__executor_ctx, __executor_queue, move |ctx, __executor_writer| async move {
//                     let queue: &dyn EventQueueWriter = &__executor_writer;
//                     { … }
//                 })
//             }
//         }
//     };
pub fn expand_impl(model: &ImplModel) -> TokenStream {
    let krate = &model.krate;
    let (impl_generics, _, where_clause) = model.generics.split_for_impl();
    let self_ty = model.self_ty;
    let execute = hook_fn(krate, "execute", &model.execute);
    let cancel = model
        .cancel
        .as_ref()
        .map(|hook| hook_fn(krate, "cancel", hook));
    let on_shutdown = model
        .on_shutdown
        .as_ref()
        .map(|hook| shutdown_fn(krate, hook));
    quote! {
        const _: () = {
            #[automatically_derived]
            #[allow(unused_qualifications)] // generated paths are absolute on purpose
            impl #impl_generics #krate::agent::AgentExecutor for #self_ty #where_clause {
                #execute
                #cancel
                #on_shutdown
            }
        };
    }
}

/// `execute` or `cancel`: the body runs inside `run_execute`/`run_cancel` with a `TaskQueue`.
fn hook_fn(krate: &CratePath, name: &str, hook: &Hook) -> TokenStream {
    let ident = format_ident!("{name}");
    let runner = format_ident!("run_{name}");
    let writer = quote!(__executor_writer);
    let body = match hook {
        Hook::Closure {
            params,
            block,
            span,
        } => {
            let ctx = params[0];
            let queue = params[1];
            let async_move = quote_spanned!(*span=> async move);
            // The block's statements, not the block: `{ Ok(()) }` after the `let` would be
            // `unused_braces` in the user's code.
            let stmts = &block.stmts;
            quote! {
                move |#ctx: &'__executor #krate::agent::RequestContext, #writer: #krate::agent::TaskQueue| #async_move {
                    let #queue: &dyn #krate::agent::EventQueueWriter = &#writer;
                    #(#stmts)*
                }
            }
        }
        Hook::Method(method) => {
            // Each argument carries the span of the parameter it is passed to, so a parameter
            // of the wrong type is blamed where it is declared.
            let spans: Vec<Span> = method
                .sig
                .inputs
                .iter()
                .filter_map(|arg| match arg {
                    syn::FnArg::Typed(typed) => Some(typed.ty.span()),
                    syn::FnArg::Receiver(_) => None,
                })
                .collect();
            let ctx_arg = quote_spanned!(spans[0]=> __executor_ctx);
            let queue_arg = quote_spanned!(spans[1]=> &__executor_writer);
            let span = method_span(method);
            let call = quote_spanned!(span=> Self::#ident(self, #ctx_arg, #queue_arg).await);
            quote! {
                move |__executor_ctx: &'__executor #krate::agent::RequestContext, #writer: #krate::agent::TaskQueue| async move {
                    #call
                }
            }
        }
    };
    quote! {
        fn #ident<'__executor>(
            &'__executor self,
            __executor_ctx: &'__executor #krate::agent::RequestContext,
            __executor_queue: &'__executor dyn #krate::agent::EventQueueWriter,
        ) -> #krate::BoxFuture<'__executor, #krate::agent::A2aResult<()>> {
            #krate::__private::a2a::#runner(__executor_ctx, __executor_queue, #body)
        }
    }
}

fn shutdown_fn(krate: &CratePath, hook: &Hook) -> TokenStream {
    let body = match hook {
        Hook::Closure { block, span, .. } => {
            let async_move = quote_spanned!(*span=> async move);
            quote!(#async_move #block)
        }
        Hook::Method(method) => {
            let span = method_span(method);
            quote_spanned!(span=> Self::on_shutdown(self))
        }
    };
    quote! {
        fn on_shutdown<'__executor>(&'__executor self) -> #krate::BoxFuture<'__executor, ()> {
            #krate::__private::a2a::run_shutdown(#body)
        }
    }
}

/// What `agent_executor!` emits next to its errors when the type parsed: an impl whose body is
/// never run, so uses of the agent elsewhere do not add errors of their own (thiserror's
/// fallback).
pub fn fallback_impl(
    krate: &CratePath,
    generics: &syn::Generics,
    self_ty: &syn::Type,
) -> TokenStream {
    let (impl_generics, _, where_clause) = generics.split_for_impl();
    quote! {
        const _: () = {
            #[automatically_derived]
            impl #impl_generics #krate::agent::AgentExecutor for #self_ty #where_clause {
                fn execute<'__executor>(
                    &'__executor self,
                    _: &'__executor #krate::agent::RequestContext,
                    _: &'__executor dyn #krate::agent::EventQueueWriter,
                ) -> #krate::BoxFuture<'__executor, #krate::agent::A2aResult<()>> {
                    ::core::unreachable!()
                }
            }
        };
    }
}

/// `#[agent]` on error: the fallback executor plus an `agent_card` and `Agent` impl that are
/// never run.
pub fn fallback_agent(
    krate: &CratePath,
    generics: &syn::Generics,
    self_ty: &syn::Type,
) -> TokenStream {
    let executor = fallback_impl(krate, generics, self_ty);
    let card = card_fns(krate, generics, self_ty, &quote!(::core::unreachable!()));
    quote!(#executor #card)
}

// Input:
//     /// Answers weather questions.
//     #[agent(name = "Weather", skill(id = "forecast", tags = ["weather"]))]
//     impl WeatherAgent { async fn execute(&self, ctx: &RequestContext, queue: &dyn EventQueueWriter) -> A2aResult<()> { … } }
// Output:
//     impl WeatherAgent { async fn execute(…) … }                 (as written)
//     impl WeatherAgent { pub fn agent_card(url: &str) -> AgentCard { const SPEC: CardSpec = …; SPEC.card(url) } }
//     const _: () = { impl Agent for WeatherAgent { fn card(&self, url) { Self::agent_card(url) } } };
//     const _: () = { impl AgentExecutor for WeatherAgent { fn execute(…) { run_execute(…, Self::execute(self, ctx, &queue)) } } };
pub fn expand_agent(model: &AgentModel, block: &syn::ItemImpl) -> TokenStream {
    let krate = &model.imp.krate;
    let spec = card_spec(krate, &model.card);
    let body = quote! {
        const __EXECUTOR_CARD: #krate::__private::a2a::CardSpec = #spec;
        __EXECUTOR_CARD.card(url)
    };
    let card = card_fns(krate, model.imp.generics, model.imp.self_ty, &body);
    let executor = expand_impl(&model.imp);
    quote! {
        #block
        #card
        #executor
    }
}

fn card_fns(
    krate: &CratePath,
    generics: &syn::Generics,
    self_ty: &syn::Type,
    body: &TokenStream,
) -> TokenStream {
    let (impl_generics, _, where_clause) = generics.split_for_impl();
    let doc = format!(
        "The A2A agent card of `{}`, with its interfaces at `url` (generated by `#[agent]`).",
        self_ty.to_token_stream().to_string().replace(' ', "")
    );
    quote! {
        impl #impl_generics #self_ty #where_clause {
            #[doc = #doc]
            #[must_use]
            pub fn agent_card(url: &str) -> #krate::agent::AgentCard {
                #body
            }
        }

        const _: () = {
            #[automatically_derived]
            #[allow(unused_qualifications)] // generated paths are absolute on purpose
            impl #impl_generics #krate::agent::Agent for #self_ty #where_clause {
                fn card(&self, url: &str) -> #krate::agent::AgentCard {
                    Self::agent_card(url)
                }
            }
        };
    }
}

fn card_spec(krate: &CratePath, card: &Card) -> TokenStream {
    let name = &card.name;
    let description = &card.description;
    let version = card.version.as_ref().map_or_else(
        || quote!(::core::env!("CARGO_PKG_VERSION")),
        ToTokens::to_token_stream,
    );
    let provider = option(
        card.provider
            .as_ref()
            .map(|(org, url)| quote!((#org, #url))),
    );
    let documentation_url = option(
        card.documentation_url
            .as_ref()
            .map(ToTokens::to_token_stream),
    );
    let icon_url = option(card.icon_url.as_ref().map(ToTokens::to_token_stream));
    let streaming = card.streaming;
    let push = card.push_notifications;
    let input_modes = &card.input_modes;
    let output_modes = &card.output_modes;
    let skills = card.skills.iter().map(|s| skill_spec(krate, s));
    quote! {
        #krate::__private::a2a::CardSpec {
            name: #name,
            description: #description,
            version: #version,
            provider: #provider,
            documentation_url: #documentation_url,
            icon_url: #icon_url,
            streaming: #streaming,
            push_notifications: #push,
            input_modes: &[#(#input_modes),*],
            output_modes: &[#(#output_modes),*],
            skills: &[#(#skills),*],
        }
    }
}

fn skill_spec(krate: &CratePath, skill: &Skill) -> TokenStream {
    let Skill {
        id,
        name,
        description,
        tags,
        examples,
        input_modes,
        output_modes,
    } = skill;
    let input_modes = option(input_modes.as_ref().map(|m| quote!(&[#(#m),*])));
    let output_modes = option(output_modes.as_ref().map(|m| quote!(&[#(#m),*])));
    quote! {
        #krate::__private::a2a::SkillSpec {
            id: #id,
            name: #name,
            description: #description,
            tags: &[#(#tags),*],
            examples: &[#(#examples),*],
            input_modes: #input_modes,
            output_modes: #output_modes,
        }
    }
}

fn option(value: Option<TokenStream>) -> TokenStream {
    value.map_or_else(
        || quote!(::core::option::Option::None),
        |value| quote!(::core::option::Option::Some(#value)),
    )
}
