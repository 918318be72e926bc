//! Code generation for `agent_executor!` and `#[agent]`. Infallible: the model is checked.
//! What they emit on error is in `fallback.rs`.

use proc_macro2::{Span, TokenStream};
use quote::{ToTokens, format_ident, quote, quote_spanned};
use syn::spanned::Spanned;

use super::model::{AgentModel, Card, Hook, ImplModel, Skill};

// Input:
//     agent_executor!(Echo, |ctx, queue| async { … });
// Output:
//     const _: () = {
//         use ::tool_executor::__private as __rt;
//         impl __rt::a2a::AgentExecutor for Echo {
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
    let runtime = model.krate.runtime();
    let items = executor_impl(model);
    quote! {
        #[allow(unused_qualifications)] // every runtime path goes through `__rt` on purpose
        const _: () = {
            #runtime
            #items
        };
    }
}

/// The `AgentExecutor` impl, for inside a `const _` block that has `__rt`.
fn executor_impl(model: &ImplModel) -> TokenStream {
    let (impl_generics, _, where_clause) = model.generics.split_for_impl();
    let self_ty = model.self_ty;
    let execute = hook_fn("execute", &model.execute);
    let cancel = model.cancel.as_ref().map(|hook| hook_fn("cancel", hook));
    let on_shutdown = model.on_shutdown.as_ref().map(shutdown_fn);
    quote! {
        #[automatically_derived]
        impl #impl_generics __rt::a2a::AgentExecutor for #self_ty #where_clause {
            #execute
            #cancel
            #on_shutdown
        }
    }
}

/// `execute` or `cancel`: the body runs inside `run_execute`/`run_cancel` with a `TaskQueue`.
fn hook_fn(name: &str, hook: &Hook) -> TokenStream {
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
                move |#ctx: &'__executor __rt::a2a::RequestContext, #writer: __rt::a2a::TaskQueue| #async_move {
                    let #queue: &dyn __rt::a2a::EventQueueWriter = &#writer;
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
                move |__executor_ctx: &'__executor __rt::a2a::RequestContext, #writer: __rt::a2a::TaskQueue| async move {
                    #call
                }
            }
        }
    };
    quote! {
        fn #ident<'__executor>(
            &'__executor self,
            __executor_ctx: &'__executor __rt::a2a::RequestContext,
            __executor_queue: &'__executor dyn __rt::a2a::EventQueueWriter,
        ) -> __rt::BoxFuture<'__executor, __rt::a2a::A2aResult<()>> {
            __rt::a2a::#runner(__executor_ctx, __executor_queue, #body)
        }
    }
}

fn shutdown_fn(hook: &Hook) -> TokenStream {
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
        fn on_shutdown<'__executor>(&'__executor self) -> __rt::BoxFuture<'__executor, ()> {
            __rt::a2a::run_shutdown(#body)
        }
    }
}

// Input:
//     /// Answers weather questions.
//     #[agent(name = "Weather", skill(id = "forecast", tags = ["weather"]))]
//     impl WeatherAgent { async fn execute(&self, ctx: &RequestContext, queue: &dyn EventQueueWriter) -> A2aResult<()> { … } }
// Output:
//     impl WeatherAgent { async fn execute(…) … }                 (as written)
//     const _: () = {
//         use ::tool_executor::__private as __rt;
//         impl WeatherAgent { pub fn agent_card(url: &str) -> AgentCard { const SPEC: CardSpec = …; SPEC.card(url) } }
//         impl Agent for WeatherAgent { fn card(&self, url) { Self::agent_card(url) } }
//         impl AgentExecutor for WeatherAgent { fn execute(…) { run_execute(…, Self::execute(self, ctx, &queue)) } }
//     };
pub fn expand_agent(model: &AgentModel, block: &syn::ItemImpl) -> TokenStream {
    let runtime = model.imp.krate.runtime();
    let spec = card_spec(&model.card);
    let body = quote! {
        const __EXECUTOR_CARD: __rt::a2a::CardSpec = #spec;
        __EXECUTOR_CARD.card(url)
    };
    let card = card_items(model.imp.generics, model.imp.self_ty, &body);
    let executor = executor_impl(&model.imp);
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

/// `agent_card(url)` and the `Agent` impl, for inside a `const _` block that has `__rt`.
pub fn card_items(
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
            pub fn agent_card(url: &str) -> __rt::a2a::AgentCard {
                #body
            }
        }

        #[automatically_derived]
        impl #impl_generics __rt::a2a::Agent for #self_ty #where_clause {
            fn card(&self, url: &str) -> __rt::a2a::AgentCard {
                Self::agent_card(url)
            }
        }
    }
}

fn card_spec(card: &Card) -> TokenStream {
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
    let skills = card.skills.iter().map(skill_spec);
    quote! {
        __rt::a2a::CardSpec {
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

fn skill_spec(skill: &Skill) -> TokenStream {
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
        __rt::a2a::SkillSpec {
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
    value.map_or_else(|| quote!(__rt::None), |value| quote!(__rt::Some(#value)))
}

/// The span to blame for a hook's generated call: the user's method signature.
fn method_span(method: &syn::ImplItemFn) -> Span {
    method.sig.span()
}
