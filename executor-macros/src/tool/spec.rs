//! A tool's spec: name, description, the input and output schemas (compile-time literals where
//! the macro sees every type, schemars otherwise), annotations, failure codes and timeout.

use proc_macro2::{Ident, Span, TokenStream};
use quote::{quote, quote_spanned};
use syn::Type;

use super::model::{Arg, Decode, Param, Ret, ToolFn};
use super::schema;
use super::types::{erase_lifetimes, span_of};
use crate::util::json_string;

// Input:
//     /// Adds.
//     #[tool(read_only)]
//     fn add(a: i64, b: i64) -> i64 { a + b }
// Output (spec):
//     __rt::ToolSpec::new("add", "Adds.", __rt::literal(r#"{"type":"object","properties":{…},…}"#))
//         .with_output_schema(__rt::literal(r#"{"type":"integer","format":"int64"}"#))
//         .with_annotations(__rt::ToolAnnotations { read_only: __rt::Some(true), ..__rt::Default::default() })
// `with_annotations` is left out when no hint is set, `with_timeout` without a timeout,
// `with_tags(["admin", …])` without `tags`.
pub fn spec(model: &ToolFn) -> TokenStream {
    let name = &model.name;
    let description = &model.description;
    let input = input_schema(model);
    let output = output_schema(model);
    let title = model
        .title
        .as_ref()
        .map(|t| quote!(title: __rt::Some(__rt::String::from(#t)),));
    let hints = [
        ("read_only", model.read_only),
        ("destructive", model.destructive),
        ("idempotent", model.idempotent),
        ("open_world", model.open_world),
    ];
    let hints: Vec<TokenStream> = hints
        .iter()
        .filter_map(|(key, value)| {
            let key = Ident::new(key, Span::call_site());
            value.map(|v| quote!(#key: __rt::Some(#v),))
        })
        .collect();
    let annotations = (title.is_some() || !hints.is_empty()).then(|| {
        quote!(.with_annotations(__rt::ToolAnnotations { #title #(#hints)* ..__rt::Default::default() }))
    });
    let timeout = model
        .timeout_ms()
        .map(|ms| quote!(.with_timeout(__rt::Duration::from_millis(#ms))));
    let failure_codes = failure_codes(model);
    let tags = &model.tags;
    let tags = (!tags.is_empty()).then(|| quote!(.with_tags([#(#tags),*])));
    let scopes = &model.scopes;
    let scopes = (!scopes.is_empty()).then(|| quote!(.with_scopes([#(#scopes),*])));
    let icons = model
        .icon
        .as_ref()
        .map(|src| quote!(.with_icons([__rt::Icon::new(#src)])));
    let task = task(model);
    // The tools that can ask: only their calls get a provider loop's deferral.
    let asks = (model.confirm || model.params.iter().any(|p| matches!(p, Param::Context)))
        .then(|| quote!(.with_asks_user(true)));
    quote! {
        __rt::ToolSpec::new(#name, #description, #input)
            .with_output_schema(#output)
            #annotations
            #failure_codes
            #timeout
            #tags
            #scopes
            #icons
            #task
            #asks
    }
}

// Input:  #[tool(task = "required", ttl = "10m", poll = "2s")]
// Output: .with_task(__rt::TaskSpec::new(__rt::TaskSupport::Required)
//             .with_ttl(__rt::Duration::from_millis(600000u64))
//             .with_poll_interval(__rt::Duration::from_millis(2000u64)))
// Nothing without `task`.
fn task(model: &ToolFn) -> Option<TokenStream> {
    let (required, _) = model.task.as_ref()?;
    let support = if *required {
        quote!(Required)
    } else {
        quote!(Optional)
    };
    let ttl = model
        .ttl
        .as_ref()
        .map(|(ms, _)| quote!(.with_ttl(__rt::Duration::from_millis(#ms))));
    let poll = model
        .poll
        .as_ref()
        .map(|(ms, _)| quote!(.with_poll_interval(__rt::Duration::from_millis(#ms))));
    Some(quote!(.with_task(__rt::TaskSpec::new(__rt::TaskSupport::#support) #ttl #poll)))
}

// Input:  fn get_weather(…) -> Result<Weather, WeatherError>
// Output: .with_failure_codes((&CodesProbe::<WeatherError>::new()).failure_codes().iter().copied())
// Autoref specialization at the (concrete) call site: an error type that derives `ToolFailure`
// lists its `FailureCodes`; `String`, `ToolFailure` or a hand-written `From` impl list none.
fn failure_codes(model: &ToolFn) -> Option<TokenStream> {
    let Ret::Result(ty) = &model.ret else {
        return None;
    };
    let ty = erase_lifetimes(ty);
    Some(quote! {
        .with_failure_codes({
            #[allow(unused_imports)] // autoref specialization: one of the two applies
            use __rt::{DerivedCodes as _, NoCodes as _};
            (&__rt::CodesProbe::<<#ty as __rt::ResultParts>::Err>::new()).failure_codes()
        }.iter().copied())
    })
}

/// A literal when every argument's type is visible to the macro, schemars at first use
/// otherwise.
fn input_schema(model: &ToolFn) -> TokenStream {
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
        return quote!(__rt::literal(#json));
    }
    let params = args.iter().map(|a| {
        let name = &a.json_name;
        let required = a.required();
        let ty = schema_type(a);
        let description = option_tokens(a.description.as_ref());
        quote_spanned!(span_of(&a.ty)=> .param::<#ty>(#name, #description, #required))
    });
    quote!(__rt::InputSchema::new() #(#params)* .finish())
}

/// `Some(v)` / `None` as tokens.
pub fn option_tokens<T: quote::ToTokens>(value: Option<T>) -> TokenStream {
    if let Some(v) = value {
        quote!(__rt::Some(#v))
    } else {
        quote!(__rt::None)
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
    let literal = |json: String| quote!(__rt::literal(#json));
    match &model.ret {
        Ret::Unit => literal(r#"{"type":"null"}"#.to_owned()),
        Ret::Infallible(ty) => schema::literal(ty).map_or_else(
            || {
                let erased = erase_lifetimes(ty);
                quote_spanned!(span_of(ty)=> __rt::output_schema::<#erased>())
            },
            literal,
        ),
        Ret::Result(ty) => result_ok_type(ty).and_then(schema::literal).map_or_else(
            || {
                let erased = erase_lifetimes(ty);
                quote_spanned!(span_of(ty)=> __rt::output_schema::<<#erased as __rt::ResultParts>::Ok>())
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
