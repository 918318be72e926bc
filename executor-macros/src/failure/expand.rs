//! Code generation for `#[derive(ToolFailure)]`. Infallible: the model is checked.

use proc_macro2::{Ident, Span, TokenStream, TokenTree};
use quote::{ToTokens, format_ident, quote};
use syn::WherePredicate;
use syn::spanned::Spanned;

use super::model::{FailureType, Field, Shape, Variant};
use super::parse::{Class, Kind};

// Input:
//     #[derive(Debug, thiserror::Error, ToolFailure)]
//     enum WeatherError {
//         #[error("unknown city `{0}`")] #[failure(terminal, data)] UnknownCity(String),
//         #[error("service down")] #[failure(retry_after = "200ms")] Unavailable,
//     }
// Output:
//     const _: () = {
//         use ::tool_executor::__private as __rt;
//         impl From<WeatherError> for __rt::ToolFailure { fn from(…) -> Self { … } }
//         impl __rt::FailureCodes for WeatherError {
//             const FAILURE_CODES: &'static [&'static str] = &["unknown_city", "unavailable"];
//         }
//     };
pub fn expand(model: &FailureType<'_>) -> TokenStream {
    let from = impl_from(model);
    let codes = impl_codes(model);
    let runtime = model.krate.runtime();
    quote! {
        // Anonymous const: the impls' helper imports stay out of the user's namespace.
        #[allow(unused_qualifications)] // every runtime path goes through `__rt` on purpose
        const _: () = {
            #runtime
            #from
            #codes
        };
    }
}

// Output:
//     impl From<WeatherError> for ToolFailure {
//         fn from(error: WeatherError) -> Self {
//             let message = failure_message::<WeatherError>(&error);     // the Display
//             let failure = match &error {
//                 WeatherError::UnknownCity { 0: f0, .. } => ToolFailure::terminal(message)
//                     .with_code("unknown_city").with_data(data_value::<String>(f0)),
//                 WeatherError::Unavailable { .. } => ToolFailure::ordinary(message)
//                     .with_code("unavailable").with_retry_after(Duration::from_millis(200)),
//             };
//             (&&&&SourceProbe::new(error)).attach_source(failure)        // keeps the error
//         }
//     }
fn impl_from(model: &FailureType<'_>) -> TokenStream {
    let ident = &model.original.ident;
    let (impl_generics, ty_generics, _) = model.original.generics.split_for_impl();
    let where_clause = from_bounds(model);
    let error = local("__executor_error");
    let message = local("__executor_message");
    let failure = local("__executor_failure");
    let body = if model.shape == Shape::Enum && model.variants.is_empty() {
        quote!(match #error {})
    } else {
        let arms = model.variants.iter().map(|v| arm(model, v));
        let keep_source = keep_source(model, &error, &failure);
        // The type is named with the user's tokens, so a missing `Display` blames the type.
        let display = quote!(__rt::failure_message::<#ident #ty_generics>(&#error));
        quote! {
            let #message: __rt::String = #display;
            let #failure: __rt::ToolFailure = match &#error {
                #(#arms)*
            };
            #keep_source
        }
    };
    quote! {
        #[automatically_derived]
                impl #impl_generics ::core::convert::From<#ident #ty_generics> for __rt::ToolFailure #where_clause {
            fn from(#error: #ident #ty_generics) -> Self {
                #body
            }
        }
    }
}

/// One match arm: the variant's pattern, binding the fields `data` serializes, and the
/// failure it becomes. Patterns use braces with members (`E::V { 0: f0, .. }`), which match
/// unit, tuple and named variants alike.
fn arm(model: &FailureType<'_>, variant: &Variant<'_>) -> TokenStream {
    let settings = &variant.settings;
    let path = match model.shape {
        Shape::Enum => {
            let ty = &model.original.ident;
            let name = variant.ident;
            quote!(#ty::#name)
        }
        Shape::Struct => variant.ident.to_token_stream(),
    };
    let data_fields: Vec<&Field<'_>> = if settings.data {
        variant.data_fields().collect()
    } else {
        Vec::new()
    };
    let bindings: Vec<Ident> = (0..data_fields.len())
        .map(|i| local(&format!("__executor_field_{i}")))
        .collect();
    let members = data_fields.iter().map(|f| &f.member);
    let constructor = match settings.class {
        Class::Ordinary => quote!(ordinary),
        Class::Terminal => quote!(terminal),
        Class::Unhandled => quote!(unhandled),
    };
    let message = local("__executor_message");
    let code = &settings.code;
    let kind = (settings.kind != Kind::Tool).then(|| {
        let kind = Ident::new(settings.kind.variant(), Span::call_site());
        quote!(.with_kind(__rt::FailureKind::#kind))
    });
    let retry = settings
        .retry_after_ms
        .map(|ms| quote!(.with_retry_after(__rt::Duration::from_millis(#ms))));
    let data = settings.data.then(|| {
        let value = data_value(variant, &data_fields, &bindings);
        quote!(.with_data(#value))
    });
    let redact = settings.redact.then(|| quote!(.redact()));
    quote! {
        #path { #(#members: #bindings,)* .. } => __rt::ToolFailure::#constructor(#message)
            .with_code(#code)
            #kind
            #retry
            #data
            #redact,
    }
}

// Input:  UnknownCity { city: String, #[failure(skip)] source: io::Error }
// Output: { let mut map = Map::new(); map.insert("city".into(), data_value(f0)); Value::Object(map) }
// Positional fields: one is its value, several an array.
fn data_value(variant: &Variant<'_>, fields: &[&Field<'_>], bindings: &[Ident]) -> TokenStream {
    // The field's type is named with the user's tokens, so a missing `Serialize` blames it.
    let values: Vec<TokenStream> = fields
        .iter()
        .zip(bindings)
        .map(|(f, b)| {
            let ty = f.ty;
            quote!(__rt::data_value::<#ty>(#b))
        })
        .collect();
    let named = variant
        .fields
        .iter()
        .next()
        .is_some_and(|f| f.ident.is_some());
    if named {
        let keys = fields.iter().map(|f| &f.key);
        let map = local("__executor_data");
        quote! {{
            let mut #map = __rt::Map::new();
            #(#map.insert(__rt::String::from(#keys), #values);)*
            __rt::Value::Object(#map)
        }}
    } else if let [single] = values.as_slice() {
        single.clone()
    } else {
        quote!(__rt::Value::Array(__rt::vec![#(#values),*]))
    }
}

// Concrete types keep the error itself as the source when it is `Error + Send + Sync +
// 'static`; generic ones (whose impl is checked once for every instantiation) keep a snapshot
// of its text and source chain. See `tool_executor::failure::support`.
fn keep_source(model: &FailureType<'_>, error: &Ident, failure: &Ident) -> TokenStream {
    if model.is_generic() {
        quote! {{
            #[allow(unused_imports)] // autoref specialization: one of the three applies
            use __rt::{AttachDebug as _, AttachError as _, AttachNone as _};
            (&&&__rt::SourceProbe::new(#error)).snapshot_source(#failure)
        }}
    } else {
        quote! {{
            #[allow(unused_imports)] // autoref specialization: one of the four applies
            use __rt::{AttachDebug as _, AttachError as _, AttachNone as _, AttachOwned as _};
            (&&&&__rt::SourceProbe::new(#error)).attach_source(#failure)
        }}
    }
}

/// The user's where clause plus, for generic types, `Self: Display` and `Field: Serialize` for
/// each `data` field whose type names a type parameter: the impl then exists exactly for the
/// instantiations it can convert.
fn from_bounds(model: &FailureType<'_>) -> Option<syn::WhereClause> {
    let generics = &model.original.generics;
    let params: Vec<&Ident> = generics.type_params().map(|p| &p.ident).collect();
    let mut clause = generics.where_clause.clone();
    if params.is_empty() {
        return clause;
    }
    let ident = &model.original.ident;
    let (_, ty_generics, _) = generics.split_for_impl();
    let mut predicates: Vec<WherePredicate> =
        vec![syn::parse_quote!(#ident #ty_generics: ::core::fmt::Display)];
    for variant in model.variants.iter().filter(|v| v.settings.data) {
        for field in variant.data_fields() {
            if mentions(field.ty.to_token_stream(), &params) {
                let ty = field.ty;
                predicates.push(syn::parse_quote_spanned!(ty.span()=> #ty: __rt::serde::Serialize));
            }
        }
    }
    let clause = clause.get_or_insert_with(|| syn::parse_quote!(where));
    clause.predicates.extend(predicates);
    Some(clause.clone())
}

fn mentions(tokens: TokenStream, params: &[&Ident]) -> bool {
    tokens.into_iter().any(|tt| match tt {
        TokenTree::Ident(id) => params.iter().any(|p| **p == id),
        TokenTree::Group(g) => mentions(g.stream(), params),
        _ => false,
    })
}

// Output: impl FailureCodes for WeatherError { const FAILURE_CODES = &["unknown_city", "unavailable"]; }
fn impl_codes(model: &FailureType<'_>) -> TokenStream {
    let ident = &model.original.ident;
    let (impl_generics, ty_generics, where_clause) = model.original.generics.split_for_impl();
    let codes = model.variants.iter().map(|v| &v.settings.code);
    quote! {
        #[automatically_derived]
                impl #impl_generics __rt::FailureCodes for #ident #ty_generics #where_clause {
            const FAILURE_CODES: &'static [&'static str] = &[#(#codes),*];
        }
    }
}

/// A generated local: `mixed_site` so it cannot clash with, or capture, the user's names.
fn local(name: &str) -> Ident {
    format_ident!("{}", name, span = Span::mixed_site())
}
