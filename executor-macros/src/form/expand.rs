//! `impl Form` for a form struct; `impl FormChoice` and `impl FormField` for a choice enum.
//! Infallible: the model is checked.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;

use super::model::{Choice, FormField, FormType, Shape};

pub fn expand(model: &FormType<'_>) -> TokenStream {
    let runtime = model.krate.runtime();
    let body = match &model.shape {
        Shape::Form(fields) => expand_form(model, fields),
        Shape::Choice(choices) => expand_choice(model, choices),
    };
    quote! {
        #[allow(unused_qualifications)] // every runtime path goes through `__rt` on purpose
        const _: () = {
            #runtime
            #body
        };
    }
}

// Input:  #[derive(Form)] struct Seats { /// How many. #[form(min = 1)] count: u8 }
// Output: impl __rt::Form for Seats {
//             fn fields() -> Vec<Field> {
//                 vec![<u8 as FormField>::describe("count").description("How many.").minimum(1).build()]
//             }
//             fn from_answers(a: &Answers<'_>) -> Result<Self, FormError> {
//                 Ok(Self { count: <u8 as FormField>::answer(a, "count")? })
//             }
//         }
fn expand_form(model: &FormType<'_>, fields: &[FormField<'_>]) -> TokenStream {
    let ident = &model.original.ident;
    let described = fields.iter().map(describe_field);
    let taken = fields.iter().map(|field| {
        let (member, ty, name) = (field.ident, field.ty, &field.name);
        // At the field's type, so a type form mode cannot express is blamed there.
        let take = quote_spanned!(ty.span()=> <#ty as __rt::FormField>::answer);
        quote!(#member: #take(__executor_answers, #name)?)
    });
    quote! {
        #[automatically_derived]
        impl __rt::Form for #ident {
            fn fields() -> __rt::Vec<__rt::Field> {
                __rt::vec![#(#described),*]
            }

            fn from_answers(
                __executor_answers: &__rt::Answers<'_>,
            ) -> __rt::Result<Self, __rt::FormError> {
                __rt::Ok(Self { #(#taken,)* })
            }
        }
    }
}

/// `Field::of::<T>("name")` and one call per setting, each spanned at its key so a setting on
/// the wrong type is blamed on the key.
fn describe_field(field: &FormField<'_>) -> TokenStream {
    let (ty, name, attr) = (field.ty, &field.name, &field.attr);
    // `<T as FormField>` at the field's type, here and in `from_answers`: a type form mode
    // cannot express is one error there (rustc folds the identical two).
    let describe = quote_spanned!(ty.span()=> <#ty as __rt::FormField>::describe);
    let mut out = quote!(#describe(#name));
    if let Some(title) = &attr.title {
        out.extend(quote!(.title(#title)));
    }
    if !field.description.is_empty() {
        let description = &field.description;
        out.extend(quote!(.description(#description)));
    }
    let mut setting = |key: &syn::Ident, method: &str, value: &dyn quote::ToTokens| {
        let method = syn::Ident::new(method, key.span());
        out.extend(quote_spanned!(key.span()=> .#method(#value)));
    };
    if let Some(s) = &attr.min_length {
        setting(&s.key, "min_length", &s.value);
    }
    if let Some(s) = &attr.max_length {
        setting(&s.key, "max_length", &s.value);
    }
    if let Some(s) = &attr.format {
        setting(&s.key, "format", &s.value);
    }
    if let Some(s) = &attr.min {
        setting(&s.key, "minimum", &s.value);
    }
    if let Some(s) = &attr.max {
        setting(&s.key, "maximum", &s.value);
    }
    if let Some(s) = &attr.min_items {
        setting(&s.key, "min_items", &s.value);
    }
    if let Some(s) = &attr.max_items {
        setting(&s.key, "max_items", &s.value);
    }
    if let Some(s) = &attr.default {
        // A string literal is the `String` it stands for; any other value is typed by the
        // field, so `default = 1` is a `u8` for a `u8` field.
        match &s.value {
            syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(text),
                ..
            }) => setting(&s.key, "default_value", &quote!(__rt::String::from(#text))),
            value => setting(&s.key, "default_value", value),
        }
    }
    quote!(#out.build())
}

// Input:  #[derive(Form)] enum Size { /// Small. S, #[form(value = "m")] M }
// Output: impl __rt::FormChoice for Size {
//             const CHOICES: &[(&str, &str)] = &[("S", "Small"), ("m", "M")];
//             fn from_index(i: usize) -> Option<Self> { match i { 0 => Some(Self::S), … } }
//             fn index(&self) -> usize { match self { Self::S => 0, … } }
//         }
//         impl __rt::FormField for Size { /* through `choice_schema`, `choice_decode` */ }
fn expand_choice(model: &FormType<'_>, choices: &[Choice<'_>]) -> TokenStream {
    let ident = &model.original.ident;
    let pairs = choices.iter().map(|c| {
        let (value, title) = (&c.value, &c.title);
        quote!((#value, #title))
    });
    let from_index = choices.iter().enumerate().map(|(i, c)| {
        let variant = c.ident;
        quote!(#i => __rt::Some(Self::#variant))
    });
    let index = choices.iter().enumerate().map(|(i, c)| {
        let variant = c.ident;
        quote!(Self::#variant => #i)
    });
    let style = model.style.map(|(variant, _)| {
        let variant = syn::Ident::new(variant, proc_macro2::Span::call_site());
        quote!(const STYLE: __rt::ChoiceStyle = __rt::ChoiceStyle::#variant;)
    });
    quote! {
        #[automatically_derived]
        impl __rt::FormChoice for #ident {
            const CHOICES: &'static [(&'static str, &'static str)] = &[#(#pairs),*];
            #style

            fn from_index(__executor_index: usize) -> __rt::Option<Self> {
                match __executor_index {
                    #(#from_index,)*
                    _ => __rt::None,
                }
            }

            fn index(&self) -> usize {
                match self {
                    #(#index,)*
                }
            }
        }

        #[automatically_derived]
        impl __rt::FormField for #ident {
            type Plain = Self;

            fn schema() -> __rt::Map<__rt::String, __rt::Value> {
                __rt::choice_schema::<Self>()
            }

            fn decode(
                __executor_value: __rt::Option<&__rt::Value>,
            ) -> __rt::Result<Self, __rt::String> {
                __rt::choice_decode::<Self>(__executor_value)
            }

            fn plain_json(__executor_value: &Self) -> __rt::Value {
                __rt::Value::from(__rt::FormChoice::value(__executor_value))
            }
        }
    }
}
