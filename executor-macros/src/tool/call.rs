//! A tool's call: decode the arguments from the request JSON, call the function, encode the
//! result, under the runtime's panic, deadline and cancellation boundary.

use proc_macro2::{Ident, Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};

use super::model::{Arg, ArgDefault, Decode, Param, Ret, ToolFn};
use super::spec::option_tokens;
use super::types::{erase_lifetimes, span_of, type_text};

// Input:  fn add(a: i64, b: i64) -> i64
// Output, for a tool that does not read its context (no `&ToolContext`, no `timeout`), the
// context-free output (`context_free_output` below) under the call's context:
//     __rt::call_context_free("add", __executor_ctx, <Self as __rt::Tool>::output(__executor_params))
// (a `#[tools]` method, which has no `Tool::output`, puts `context_free_output`'s future there); and
// for a tool that reads it, the body under `drive`, then its state changes:
//     async move {
//         let body = async { /* decode, invoke, encode: see `context_free_output` */ };
//         let out = __rt::drive("add", &ctx, timeout, pin!(body)).await?;
//         __rt::finish(out, &ctx)
//     }
// and for a free sync fn that reads it, the body as a closure on the blocking pool (the
// closure gets its own copy of the arguments, and the context by reference):
//     __rt::call_blocking("add", __executor_params, __executor_ctx, timeout,
//         |__executor_params: &__rt::Value, __executor_ctx: &__rt::ToolContext| { /* as above */ })
// An unboxed future: `Tool::run` returns it as is, `#[tools]` boxes it per method.
pub fn call_body(model: &ToolFn, receiver: Option<TokenStream>) -> TokenStream {
    let name = &model.name;
    let ctx = ctx_ident();
    if !reads_context(model) {
        let output = match receiver {
            None => {
                let params = params_ident();
                quote!(<Self as __rt::Tool>::output(#params))
            }
            receiver => context_free_output(model, receiver),
        };
        return quote!(__rt::call_context_free(#name, #ctx, #output));
    }
    let decode = decode_args(model, receiver.is_some());
    let timeout = option_tokens(
        model
            .timeout_ms()
            .map(|ms| quote!(__rt::Duration::from_millis(#ms))),
    );
    // A method's `&self` cannot move to another thread, so only free fns go to the pool
    // (`check_sync_method_timeout` rejects the one case that would then not time out).
    let params = params_ident();
    if !model.is_async && receiver.is_none() {
        let invoke = invoke(model, None, &quote!(#ctx));
        let approve = model
            .confirm
            .then(|| quote!(__rt::approve_blocking(#name, #ctx, #params)?;));
        return quote! {
            __rt::call_blocking(
                #name,
                #params,
                #ctx,
                #timeout,
                |#params: &__rt::Value, #ctx: &__rt::ToolContext| -> __rt::Result<__rt::Value, __rt::ToolFailure> {
                    #approve
                    #decode
                    #invoke
                },
            )
        };
    }
    let invoke = invoke(model, receiver, &quote!(&#ctx));
    // `#[tool(confirm)]`: the approval comes before the arguments are even decoded, so
    // nothing of the body runs unapproved (and, on MCP 2026-07-28, nothing runs twice).
    let approve = model
        .confirm
        .then(|| quote!(__rt::approve(#name, &#ctx, #params).await?;));
    quote! {
        async move {
            #approve
            let __executor_body = async {
                #decode
                #invoke
            };
            // Pinned here rather than moved into `drive`: the body's state is stored once, in
            // this future, instead of twice (measured in BENCHMARKS.md §5).
            let __executor_output = __rt::drive(
                #name,
                &#ctx,
                #timeout,
                __rt::core::pin::pin!(__executor_body),
            )
            .await?;
            __rt::finish(__executor_output, &#ctx)
        }
    }
}

// Input:  fn add(a: i64, b: i64) -> i64
// Output: what `Tool::output` returns for a tool that does not read its context:
//     __rt::context_free_output("add", async move {
//         let [a0, a1] = __rt::arguments(__executor_params, &["a", "b"])?;   // see `decode_args`
//         …
//         __rt::encode(&add(a0, a1))
//     })
pub fn context_free_output(model: &ToolFn, receiver: Option<TokenStream>) -> TokenStream {
    let name = &model.name;
    let decode = decode_args(model, receiver.is_some());
    let ctx = ctx_ident();
    let invoke = invoke(model, receiver, &quote!(&#ctx));
    quote! {
        __rt::context_free_output(#name, async move {
            #decode
            #invoke
        })
    }
}

/// Whether the tool reads its context: it takes `&ToolContext` (ids, effects, the stream), has
/// a `timeout` (a deadline of its own) or asks for approval (`confirm`: the question goes
/// through the context). Any other tool only cares whether the call has a
/// deadline or a cancellation token, and runs without its context when it has neither.
pub fn reads_context(model: &ToolFn) -> bool {
    model.confirm
        || model.timeout_ms().is_some()
        || model.params.iter().any(|p| matches!(p, Param::Context))
}

pub fn params_ident() -> Ident {
    Ident::new("__executor_params", Span::mixed_site())
}

pub fn ctx_ident() -> Ident {
    Ident::new("__executor_ctx", Span::mixed_site())
}

// Input:  fn f(a: i64, #[arg(default = 7)] d: u8)
// Output:
//     let (__executor_arg_0, __executor_arg_1) = '__executor_decode: {
//         let [__executor_arg_0, __executor_arg_1] =
//             __rt::arguments(__executor_params, &["a", "d"])?;
//         '__executor_first: {
//             let __executor_arg_0 = match __rt::first::<i64>(__executor_arg_0) {
//                 __rt::Some(__executor_value) => __executor_value,
//                 __rt::None => break '__executor_first,
//             };
//             let __executor_arg_1 = match __rt::first_or_else::<u8>(__executor_arg_1, || 7) { … };
//             break '__executor_decode (__executor_arg_0, __executor_arg_1);
//         }
//         __rt::again(move || {
//             let mut __executor_failures = __rt::Failures::default();
//             let __executor_arg_0 = __executor_failures.take(
//                 __rt::required::<i64>(__executor_arg_0, "a", "i64", &<Self as __rt::Tool>::spec));
//             let __executor_arg_1 = __executor_failures.take(
//                 __rt::or_else::<u8>(__executor_arg_1, "d", &<Self as __rt::Tool>::spec, || 7));
//             match (__executor_arg_0, __executor_arg_1) {
//                 (__rt::Some(__executor_arg_0), __rt::Some(__executor_arg_1)) => __rt::Ok((__executor_arg_0, __executor_arg_1)),
//                 _ => __rt::Err(__executor_failures.finish()),
//             }
//         })?
//     };
// (`#[arg(default)]` and `Option<T>` are `first_or_default`/`or_default`.) `arguments` walks
// the object once, filling one slot per name; a key that is no argument's is an error. A tool
// without arguments still checks that it was sent none. The first pass decodes the arguments
// one after the other straight from the request, as a hand-written decoder would; only when one
// does not decode does the second pass decode them all again, as the tool's input schema
// allows (a `null` for an optional property, `2.0` for an integer; read through
// `&<Self as Tool>::spec`, or for a `#[tools]` method
// `&__rt::Listed(|| <Self as ContextExecutor>::list_specs(self), "name")`), either going on with
// those values or reporting every failure at once (`__rt::Failures`). So a call that decodes
// the first time pays next to nothing (4 instructions, measured in BENCHMARKS.md §5):
// `__rt::again` runs the second pass out of line, and its closure is built only there and
// copies the slots (`move`) rather than borrowing them, which would keep them on the stack. The block ends the slots
// before the call, so the call's future does not keep them.
fn decode_args(model: &ToolFn, method: bool) -> TokenStream {
    let params = params_ident();
    let args: Vec<&Arg> = model.args().collect();
    let bindings: Vec<Ident> = (0..args.len()).map(arg_ident).collect();
    let names = args.iter().map(|a| a.json_name.as_str());
    // A `&dyn InputOf`: the second pass's helpers are then generic over the argument's type
    // only, one copy per type for every tool of a crate.
    let tool = if method {
        let name = &model.name;
        quote!(&__rt::Listed(|| <Self as __rt::ContextExecutor>::list_specs(self), #name))
    } else {
        quote!(&<Self as __rt::Tool>::spec)
    };
    let slots = quote! {
        let [#(#bindings),*] = __rt::arguments(#params, &[#(#names),*])?;
    };
    let (first, again): (Vec<TokenStream>, Vec<TokenStream>) = args
        .iter()
        .zip(&bindings)
        .map(|(arg, b)| decode_one(arg, b, &tool))
        .unzip();
    let label = syn::Lifetime::new("'__executor_decode", Span::mixed_site());
    let first_label = syn::Lifetime::new("'__executor_first", Span::mixed_site());
    match bindings.as_slice() {
        [] => slots,
        [binding] => {
            let (first, again) = (&first[0], &again[0]);
            quote! {
                let #binding = {
                    #slots
                    match #first {
                        __rt::Some(__executor_value) => __executor_value,
                        __rt::None => __rt::again(move || #again)?,
                    }
                };
            }
        }
        _ => quote! {
            let (#(#bindings),*) = #label: {
                #slots
                #first_label: {
                    #(
                        let #bindings = match #first {
                            __rt::Some(__executor_value) => __executor_value,
                            __rt::None => break #first_label,
                        };
                    )*
                    break #label (#(#bindings),*);
                }
                __rt::again(move || {
                    let mut __executor_failures = __rt::Failures::default();
                    #(let #bindings = __executor_failures.take(#again);)*
                    match (#(#bindings),*) {
                        (#(__rt::Some(#bindings)),*) => __rt::Ok((#(#bindings),*)),
                        _ => __rt::Err(__executor_failures.finish()),
                    }
                })?
            };
        },
    }
}

fn arg_ident(index: usize) -> Ident {
    format_ident!("__executor_arg_{}", index, span = Span::mixed_site())
}

/// The argument's first try (an `Option` of the value the fn takes, or its owned holder) and
/// its second (a `Result`, as the schema allows, with the failure).
fn decode_one(arg: &Arg, binding: &Ident, tool: &TokenStream) -> (TokenStream, TokenStream) {
    let name = &arg.json_name;
    let span = span_of(&arg.ty);
    // What serde decodes (borrowed strings, the `Vec` behind a slice) and, for a required
    // argument, how the missing type is named in the error.
    let (target, expected) = match &arg.decode {
        Decode::Owned => (erase_lifetimes(&arg.ty), type_text(&arg.ty)),
        Decode::Str | Decode::CowStr => (quote!(&str), "&str".to_owned()),
        Decode::Slice(elem) => {
            let elem = erase_lifetimes(elem);
            (quote!(__rt::Vec<#elem>), "Vec<_>".to_owned())
        }
        Decode::Ref(inner) => (erase_lifetimes(inner), type_text(inner)),
    };
    let (first, again) = match &arg.default {
        None if !arg.is_option => (
            quote_spanned!(span=> __rt::first::<#target>(#binding)),
            quote_spanned!(span=> __rt::required::<#target>(#binding, #name, #expected, #tool)),
        ),
        None | Some(ArgDefault::Trait) => (
            quote_spanned!(span=> __rt::first_or_default::<#target>(#binding)),
            quote_spanned!(span=> __rt::or_default::<#target>(#binding, #name, #tool)),
        ),
        Some(ArgDefault::Expr(expr)) => {
            let expr_span = syn::spanned::Spanned::span(expr);
            // A slice or reference argument decodes into an owned holder; its default is
            // converted into one.
            let default = match arg.decode {
                Decode::Slice(_) | Decode::Ref(_) => {
                    quote_spanned!(expr_span=> ::core::convert::Into::into(#expr))
                }
                _ => quote_spanned!(expr_span=> #expr),
            };
            if matches!(arg.decode, Decode::CowStr) {
                // The default is a `Cow`, the decoded value a `&str` borrowed from the request.
                let cow = quote! {
                    |__executor_value| match __executor_value {
                        __rt::Some(__executor_value) => __rt::Cow::Borrowed(__executor_value),
                        __rt::None => #default,
                    }
                };
                return (
                    quote_spanned!(span=> __rt::first_or_default::<__rt::Option<&str>>(#binding).map(#cow)),
                    quote_spanned!(span=> __rt::or_default::<__rt::Option<&str>>(#binding, #name, #tool).map(#cow)),
                );
            }
            (
                quote_spanned!(span=> __rt::first_or_else::<#target>(#binding, || #default)),
                quote_spanned!(span=> __rt::or_else::<#target>(#binding, #name, #tool, || #default)),
            )
        }
    };
    if matches!(arg.decode, Decode::CowStr) {
        (
            quote!(#first.map(__rt::Cow::Borrowed::<str>)),
            quote!(#again.map(__rt::Cow::Borrowed::<str>)),
        )
    } else {
        (first, again)
    }
}

/// The call of the user's fn; `ctx` is the expression passed for a `&ToolContext` parameter.
fn invoke(model: &ToolFn, receiver: Option<TokenStream>, ctx: &TokenStream) -> TokenStream {
    let ident = model.ident();
    let mut index: usize = 0;
    let call_args: Vec<TokenStream> = model
        .params
        .iter()
        .map(|p| match p {
            Param::Context => ctx.clone(),
            Param::Arg(arg) => {
                let binding = arg_ident(index);
                index += 1;
                match arg.decode {
                    Decode::Slice(_) | Decode::Ref(_) => quote!(&#binding),
                    _ => quote!(#binding),
                }
            }
        })
        .collect();
    let callee = if let Some(recv) = receiver {
        quote!(#recv.#ident)
    } else {
        quote!(#ident)
    };
    let awaited = model.is_async.then(|| quote!(.await));
    let call = quote!(#callee(#(#call_args),*) #awaited);
    match &model.ret {
        Ret::Unit => quote! {
            #call;
            __rt::Ok(__rt::Value::Null)
        },
        Ret::Infallible(ty) => {
            let erased = erase_lifetimes(ty);
            quote_spanned! {span_of(ty)=>
            __rt::encode::<#erased>(&#call)
            }
        }
        Ret::Result(ty) => quote_spanned! {span_of(ty)=>
            match __rt::ResultParts::into_result(#call) {
                __rt::Ok(__executor_value) => __rt::encode(&__executor_value),
                __rt::Err(__executor_error) => {
                    __rt::Err(__rt::IntoToolFailure::into_tool_failure(__executor_error))
                }
            }
        },
    }
}
