//! Code generation for one tool: its spec and its call body. Infallible; the model is checked.

use proc_macro2::{Delimiter, Group, Ident, Spacing, Span, TokenStream, TokenTree};
use quote::{format_ident, quote, quote_spanned};
use syn::Type;

use super::model::{Arg, ArgDefault, Decode, Param, Ret, ToolFn, span_of};
use crate::schema;
use crate::util::json_string;

// Input:
//     /// Adds.
//     #[tool(read_only)]
//     fn add(a: i64, b: i64) -> i64 { a + b }
// Output (spec):
//     ToolSpec::new("add", "Adds.", literal(r#"{"type":"object","properties":{…},…}"#))
//         .with_output_schema(literal(r#"{"type":"integer","format":"int64"}"#))
//         .with_annotations(ToolAnnotations { read_only: Some(true), … })
pub fn spec(model: &ToolFn) -> TokenStream {
    let krate = &model.krate;
    let name = &model.name;
    let description = &model.description;
    let input = input_schema(model);
    let output = output_schema(model);
    let opt_bool = option_tokens;
    let title = option_tokens(
        model
            .title
            .as_ref()
            .map(|t| quote!(::std::string::String::from(#t))),
    );
    let (read_only, destructive, idempotent, open_world) = (
        opt_bool(model.read_only),
        opt_bool(model.destructive),
        opt_bool(model.idempotent),
        opt_bool(model.open_world),
    );
    let timeout = model
        .timeout_ms
        .map(|ms| quote!(.with_timeout(#krate::__private::Duration::from_millis(#ms))));
    let failure_codes = failure_codes(model);
    quote! {
        #krate::ToolSpec::new(#name, #description, #input)
            .with_output_schema(#output)
            .with_annotations(#krate::ToolAnnotations {
                title: #title,
                read_only: #read_only,
                destructive: #destructive,
                idempotent: #idempotent,
                open_world: #open_world,
            })
            #failure_codes
            #timeout
    }
}

// Input:  fn get_weather(…) -> Result<Weather, WeatherError>
// Output: .with_failure_codes((&CodesProbe::<WeatherError>::new()).failure_codes().iter().copied())
// Autoref specialization at the (concrete) call site: an error type that derives `ToolFailure`
// lists its `FailureCodes`; `String`, `ToolFailure` or a hand-written `From` impl list none.
fn failure_codes(model: &ToolFn) -> Option<TokenStream> {
    let Ret::Result(ty) = &model.ret else {
        return None;
    };
    let krate = &model.krate;
    let ty = erase_lifetimes(ty);
    Some(quote! {
        .with_failure_codes({
            #[allow(unused_imports)] // autoref specialization: one of the two applies
            use #krate::__private::{DerivedCodes as _, NoCodes as _};
            (&#krate::__private::CodesProbe::<<#ty as #krate::__private::ResultParts>::Err>::new()).failure_codes()
        }.iter().copied())
    })
}

/// A literal when every argument's type is visible to the macro, schemars at first use
/// otherwise.
fn input_schema(model: &ToolFn) -> TokenStream {
    let krate = &model.krate;
    let args: Vec<&Arg> = model.args().collect();
    let literals: Option<Vec<String>> = args.iter().map(|a| schema::literal(&a.ty)).collect();
    if let Some(literals) = literals {
        let properties: Vec<String> = args
            .iter()
            .zip(&literals)
            .map(|(a, lit)| {
                format!(
                    "{}:{}",
                    json_string(&a.json_name),
                    schema::with_description(lit, a.description.as_deref())
                )
            })
            .collect();
        let required: Vec<String> = args
            .iter()
            .filter(|a| a.required())
            .map(|a| json_string(&a.json_name))
            .collect();
        let required = if required.is_empty() {
            String::new()
        } else {
            format!(",\"required\":[{}]", required.join(","))
        };
        let json = format!(
            "{{\"type\":\"object\",\"properties\":{{{}}}{required},\"additionalProperties\":false}}",
            properties.join(",")
        );
        return quote!(#krate::__private::literal(#json));
    }
    let params = args.iter().map(|a| {
        let name = &a.json_name;
        let required = a.required();
        let ty = schema_type(a);
        let description = option_tokens(a.description.as_ref());
        quote_spanned!(span_of(&a.ty)=> .param::<#ty>(#name, #description, #required))
    });
    quote!(#krate::__private::InputSchema::new() #(#params)* .finish())
}

/// `Some(v)` / `None` as tokens.
fn option_tokens<T: quote::ToTokens>(value: Option<T>) -> TokenStream {
    if let Some(v) = value {
        quote!(::core::option::Option::Some(#v))
    } else {
        quote!(::core::option::Option::None)
    }
}

/// The type whose schema describes an argument: what it decodes from, lifetimes erased.
fn schema_type(arg: &Arg) -> TokenStream {
    match &arg.decode {
        Decode::Str | Decode::CowStr => quote!(str),
        Decode::Slice(elem) => {
            let elem = erase_lifetimes(elem);
            quote!([#elem])
        }
        Decode::Ref(inner) => erase_lifetimes(inner),
        Decode::Owned => erase_lifetimes(&arg.ty),
    }
}

fn output_schema(model: &ToolFn) -> TokenStream {
    let krate = &model.krate;
    let literal = |json: String| quote!(#krate::__private::literal(#json));
    match &model.ret {
        Ret::Unit => literal(r#"{"type":"null"}"#.to_owned()),
        Ret::Plain(ty) => schema::literal(ty).map_or_else(
            || {
                let erased = erase_lifetimes(ty);
                quote_spanned!(span_of(ty)=> #krate::__private::output_schema::<#erased>())
            },
            literal,
        ),
        Ret::Result(ty) => result_ok_type(ty).and_then(schema::literal).map_or_else(
            || {
                let erased = erase_lifetimes(ty);
                quote_spanned!(span_of(ty)=> #krate::__private::output_schema::<<#erased as #krate::__private::ResultParts>::Ok>())
            },
            literal,
        ),
    }
}

fn result_ok_type(ty: &Type) -> Option<&Type> {
    let Type::Path(p) = ty else { return None };
    let syn::PathArguments::AngleBracketed(args) = &p.path.segments.last()?.arguments else {
        return None;
    };
    if args.args.len() != 2 {
        return None;
    }
    match args.args.first()? {
        syn::GenericArgument::Type(t) => Some(t),
        _ => None,
    }
}

// Input:  fn add(a: i64, b: i64) -> i64
// Output, for a tool that does not read its context (no `&ToolContext`, no `timeout`):
//     call_plain("add", ctx, async move {
//         let mut raw_0 = None; let mut raw_1 = None;
//         if let Some(obj) = object(params)? { for (k, v) in obj { match k.as_str() {
//             "a" => raw_0 = Some(v), "b" => raw_1 = Some(v),
//             other => return Err(unknown(other, &["a", "b"])) } } }
//         let arg_0: i64 = match raw_0 { Some(v) => decode::<i64>(v, "a")?, None => return Err(missing("a", "i64")) };
//         …
//         let value = add(arg_0, arg_1); encode(&value)
//     })
// and for a tool that reads it, the same body under `drive`, then its state changes:
//     async move {
//         let body = async { /* as above */ };
//         let out = drive("add", &ctx, timeout, pin!(body)).await?;
//         finish(out, &ctx)
//     }
// An unboxed future: `Tool::call` returns it as is, `#[tools]` boxes it per method.
pub fn call_body(model: &ToolFn, receiver: Option<TokenStream>) -> TokenStream {
    let krate = &model.krate;
    let name = &model.name;
    let ctx = ctx_ident();
    let decode = decode_args(model);
    let invoke = invoke(model, receiver);
    if !reads_context(model) {
        return quote! {
            #krate::__private::call_plain(#name, #ctx, async move {
                #decode
                #invoke
            })
        };
    }
    let timeout = option_tokens(
        model
            .timeout_ms
            .map(|ms| quote!(#krate::__private::Duration::from_millis(#ms))),
    );
    quote! {
        async move {
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
        }
    }
}

/// Whether the tool reads its context: it takes `&ToolContext` (ids, effects, the stream) or
/// has a `timeout` (a deadline of its own). Any other tool only cares whether the call has a
/// deadline or a cancellation token, and runs without its context when it has neither.
pub fn reads_context(model: &ToolFn) -> bool {
    model.timeout_ms.is_some() || model.params.iter().any(|p| matches!(p, Param::Context))
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

impl ToolFn {
    pub fn args(&self) -> impl Iterator<Item = &Arg> {
        self.params.iter().filter_map(|p| match p {
            Param::Arg(a) => Some(&**a),
            Param::Context => None,
        })
    }
}

/// Replaces named lifetimes with `'_` so a parameter type can be named inside generated fns
/// (where the user's lifetime parameters are not in scope). `'static` stays.
pub fn erase_lifetimes(ty: &Type) -> TokenStream {
    erase_in(quote!(#ty))
}

fn erase_in(tokens: TokenStream) -> TokenStream {
    let mut out = Vec::new();
    let mut after_quote = false;
    for tt in tokens {
        match tt {
            TokenTree::Punct(p) if p.as_char() == '\'' && p.spacing() == Spacing::Joint => {
                after_quote = true;
                out.push(TokenTree::Punct(p));
            }
            TokenTree::Ident(id) if after_quote => {
                after_quote = false;
                if id == "static" {
                    out.push(TokenTree::Ident(id));
                } else {
                    out.push(TokenTree::Ident(Ident::new("_", id.span())));
                }
            }
            TokenTree::Group(g) => {
                after_quote = false;
                let mut ng = Group::new(g.delimiter(), erase_in(g.stream()));
                ng.set_span(g.span());
                out.push(TokenTree::Group(ng));
            }
            other => {
                after_quote = false;
                out.push(other);
            }
        }
    }
    out.into_iter().collect()
}

/// The type as a reader writes it, lifetimes dropped: `&str`, `Vec<String>`, `Option<u32>`.
fn type_text(ty: &Type) -> String {
    let mut text = String::new();
    write_tokens(quote!(#ty), &mut text);
    text
}

fn write_tokens(tokens: TokenStream, out: &mut String) {
    let mut skip_ident = false;
    let mut last_ident = false;
    for tt in tokens {
        match tt {
            TokenTree::Punct(p) if p.as_char() == '\'' => skip_ident = true,
            TokenTree::Ident(_) if skip_ident => {
                skip_ident = false;
                last_ident = false;
            }
            TokenTree::Ident(id) => {
                if last_ident {
                    out.push(' ');
                }
                out.push_str(&id.to_string());
                last_ident = true;
            }
            TokenTree::Punct(p) => {
                out.push(p.as_char());
                if p.as_char() == ',' {
                    out.push(' ');
                }
                last_ident = false;
            }
            TokenTree::Group(g) => {
                let (open, close) = match g.delimiter() {
                    Delimiter::Parenthesis => ("(", ")"),
                    Delimiter::Bracket => ("[", "]"),
                    Delimiter::Brace => ("{", "}"),
                    Delimiter::None => ("", ""),
                };
                out.push_str(open);
                write_tokens(g.stream(), out);
                out.push_str(close);
                last_ident = false;
            }
            TokenTree::Literal(l) => {
                out.push_str(&l.to_string());
                last_ident = false;
            }
        }
    }
}
