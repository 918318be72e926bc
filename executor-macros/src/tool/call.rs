//! A tool's call: decode the arguments from the request JSON, call the function, encode the
//! result, under the runtime's panic, deadline and cancellation boundary.

use proc_macro2::{Ident, Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};

use super::model::{Arg, ArgDefault, Decode, Param, Ret, ToolFn};
use super::spec::option_tokens;
use super::types::{erase_lifetimes, span_of, type_text};

// Input:  fn add(a: i64, b: i64) -> i64
// Output, for a tool that reads its context (a `&ToolContext` parameter or a `timeout`):
//     Box::pin(async move {
//         let body = async {
//             let mut raw_0 = None; let mut raw_1 = None;
//             if let Some(obj) = object(params)? { for (k, v) in obj { match k.as_str() {
//                 "a" => raw_0 = Some(v), "b" => raw_1 = Some(v),
//                 other => return Err(unknown(other, &["a", "b"])) } } }
//             let arg_0: i64 = match raw_0 { Some(v) => decode::<i64>(v, "a")?, None => return Err(missing("a", "i64")) };
//             …
//             let value = add(arg_0, arg_1); encode(&value)
//         };
//         let out = drive("add", &ctx, None, pin!(body)).await?;
//         finish(out, &ctx)
//     })
// and for any other tool (see `plain_call`):
//     with_context("add", ctx, /* plain_call(model, receiver) */)
pub fn call_body(model: &ToolFn, receiver: Option<TokenStream>) -> TokenStream {
    let krate = &model.krate;
    let name = &model.name;
    let ctx = ctx_ident();
    if !reads_context(model) {
        let plain = plain_call(model, receiver);
        return quote!(#krate::__private::with_context(#name, #ctx, #plain));
    }
    let decode = decode_args(model);
    let invoke = invoke(model, receiver);
    let timeout = option_tokens(
        model
            .timeout_ms
            .map(|ms| quote!(#krate::__private::Duration::from_millis(#ms))),
    );
    quote! {
        #krate::__private::Box::pin(async move {
            let __executor_body = async {
                #decode
                #invoke
            };
            // Pinned here rather than moved into `drive`: the body's state is stored once, in
            // this future, instead of twice (measured in BENCHMARKS.md).
            let __executor_output = #krate::__private::drive(
                #name,
                &#ctx,
                #timeout,
                #krate::__private::core::pin::pin!(__executor_body),
            )
            .await?;
            #krate::__private::finish(__executor_output, &#ctx)
        })
    }
}

/// Whether the tool reads its context: it takes `&ToolContext` (ids, effects, the stream) or
/// has a `timeout` (a deadline of its own). Any other tool only cares whether the call has a
/// deadline or a cancellation token, and is called without a context when it has neither.
pub fn reads_context(model: &ToolFn) -> bool {
    model.timeout_ms.is_some() || model.params.iter().any(|p| matches!(p, Param::Context))
}

// The call of a tool that does not read its context, as a boxed future that holds no context:
// the body under `plain_call`, which catches panics and wraps the output (no second state
// machine). Only for tools where `reads_context` is false.
//
//     Box::pin(plain_call("add", async move { /* decode, call, encode */ }))
pub fn plain_call(model: &ToolFn, receiver: Option<TokenStream>) -> TokenStream {
    let krate = &model.krate;
    let name = &model.name;
    let decode = decode_args(model);
    let invoke = invoke(model, receiver);
    quote! {
        #krate::__private::Box::pin(#krate::__private::plain_call(#name, async move {
            #decode
            #invoke
        }))
    }
}

pub fn params_ident() -> Ident {
    Ident::new("__executor_params", Span::mixed_site())
}

pub fn ctx_ident() -> Ident {
    Ident::new("__executor_ctx", Span::mixed_site())
}

fn decode_args(model: &ToolFn) -> TokenStream {
    let krate = &model.krate;
    let params = params_ident();
    let args: Vec<&Arg> = model.args().collect();
    let raws: Vec<Ident> = (0..args.len())
        .map(|i| format_ident!("__executor_raw_{}", i, span = Span::mixed_site()))
        .collect();
    let names: Vec<&str> = args.iter().map(|a| a.json_name.as_str()).collect();
    let decls = raws.iter().map(|r| quote!(let mut #r: ::core::option::Option<&#krate::__private::Value> = ::core::option::Option::None;));
    let lets = args
        .iter()
        .zip(&raws)
        .enumerate()
        .map(|(i, (arg, raw))| decode_one(model, arg, raw, i));
    quote! {
        #(#decls)*
        if let ::core::option::Option::Some(__executor_object) = #krate::__private::object(#params)? {
            for (__executor_key, __executor_value) in __executor_object {
                match __executor_key.as_str() {
                    #(#names => #raws = ::core::option::Option::Some(__executor_value),)*
                    __executor_other => {
                        return ::core::result::Result::Err(#krate::__private::unknown(__executor_other, &[#(#names),*]));
                    }
                }
            }
        }
        #(#lets)*
    }
}

fn decode_one(model: &ToolFn, arg: &Arg, raw: &Ident, index: usize) -> TokenStream {
    let krate = &model.krate;
    let binding = format_ident!("__executor_arg_{}", index, span = Span::mixed_site());
    let name = &arg.json_name;
    let span = span_of(&arg.ty);
    let (target, wrap): (TokenStream, fn(TokenStream) -> TokenStream) = match &arg.decode {
        Decode::Owned => (erase_lifetimes(&arg.ty), |e| e),
        Decode::Str => (quote!(&str), |e| e),
        Decode::CowStr => (quote!(&str), |e| quote!(::std::borrow::Cow::Borrowed(#e))),
        Decode::Slice(elem) => {
            let elem = erase_lifetimes(elem);
            (quote!(::std::vec::Vec<#elem>), |e| e)
        }
        Decode::Ref(inner) => (erase_lifetimes(inner), |e| e),
    };
    let holder_default = matches!(arg.decode, Decode::Slice(_) | Decode::Ref(_));
    let decoded =
        wrap(quote_spanned!(span=> #krate::__private::decode::<#target>(__executor_value, #name)?));
    let missing = match &arg.default {
        Some(ArgDefault::Expr(expr)) if holder_default => {
            quote_spanned!(span_of_expr(expr)=> ::core::convert::Into::into(#expr))
        }
        Some(ArgDefault::Expr(expr)) => quote_spanned!(span_of_expr(expr)=> #expr),
        Some(ArgDefault::Trait) => quote_spanned!(span=> ::core::default::Default::default()),
        None if arg.is_option => quote!(::core::option::Option::None),
        None => {
            let expected = type_text(&arg.ty);
            quote!(return ::core::result::Result::Err(#krate::__private::missing(#name, #expected)))
        }
    };
    quote! {
        let #binding = match #raw {
            ::core::option::Option::Some(__executor_value) => #decoded,
            ::core::option::Option::None => #missing,
        };
    }
}

fn span_of_expr(expr: &syn::Expr) -> Span {
    syn::spanned::Spanned::span(expr)
}

fn invoke(model: &ToolFn, receiver: Option<TokenStream>) -> TokenStream {
    let krate = &model.krate;
    let ident = &model.ident;
    let ctx = ctx_ident();
    let mut index: usize = 0;
    let call_args: Vec<TokenStream> = model
        .params
        .iter()
        .map(|p| match p {
            Param::Context => quote!(&#ctx),
            Param::Arg(arg) => {
                let binding = format_ident!("__executor_arg_{}", index, span = Span::mixed_site());
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
    let awaited = if model.is_async {
        quote!(.await)
    } else {
        TokenStream::new()
    };
    let call = quote!(#callee(#(#call_args),*) #awaited);
    match &model.ret {
        Ret::Unit => quote! {
            #call;
            ::core::result::Result::Ok(#krate::__private::Value::Null)
        },
        Ret::Plain(ty) => quote_spanned! {span_of(ty)=>
            let __executor_value = #call;
            #krate::__private::encode(&__executor_value)
        },
        Ret::Result(ty) => quote_spanned! {span_of(ty)=>
            match #krate::__private::ResultParts::into_result(#call) {
                ::core::result::Result::Ok(__executor_value) => #krate::__private::encode(&__executor_value),
                ::core::result::Result::Err(__executor_error) => ::core::result::Result::Err(
                    ::core::convert::Into::<#krate::ToolFailure>::into(__executor_error),
                ),
            }
        },
    }
}
