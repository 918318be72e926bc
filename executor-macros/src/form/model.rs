//! The typed model of one `#[derive(Form)]` input: a form struct's fields or a choice enum's
//! variants, keeping the syntax nodes for spans.

use proc_macro2::Ident;
use syn::ext::IdentExt;
use syn::{Data, DeriveInput, Fields, Type};

use super::parse::{FormAttr, Place};
use crate::diag::Errors;
use crate::krate::CratePath;
use crate::util::{doc_lines, join_doc};

/// The type that derives `Form`, read.
pub struct FormType<'a> {
    pub original: &'a DeriveInput,
    pub krate: CratePath,
    pub shape: Shape<'a>,
    /// `#[form(untitled)]` / `#[form(enum_names)]` on a choice enum: the `ChoiceStyle`
    /// variant, with the key's span.
    pub style: Option<(&'static str, proc_macro2::Span)>,
}

pub enum Shape<'a> {
    /// A struct with named fields: one form.
    Form(Vec<FormField<'a>>),
    /// An enum of unit variants: one choice.
    Choice(Vec<Choice<'a>>),
}

/// One field of a form struct.
pub struct FormField<'a> {
    pub ident: &'a Ident,
    /// Its name in the form (raw identifiers unprefixed).
    pub name: String,
    pub ty: &'a Type,
    /// The doc comment: the field's description.
    pub description: String,
    pub attr: FormAttr,
}

/// One variant of a choice enum.
pub struct Choice<'a> {
    pub ident: &'a Ident,
    /// What the client sends back: `value = "…"`, else the variant's name.
    pub value: String,
    /// What the client shows: `title = "…"`, else the doc comment's first line, else the name.
    pub title: String,
}

impl<'a> FormType<'a> {
    /// Reads the input and every attribute in it, reporting every bad one. An error when the
    /// input cannot be a form at all.
    pub fn from_syn(input: &'a DeriveInput, errors: &mut Errors) -> syn::Result<Self> {
        let type_attr = FormAttr::from_attrs(&input.attrs, Place::Type, errors);
        let style = match (type_attr.untitled, type_attr.enum_names) {
            (Some(a), Some(_)) => {
                errors.at(a, "`untitled` and `enum_names` are two styles; keep one");
                None
            }
            (Some(span), None) => Some(("Untitled", span)),
            (None, Some(span)) => Some(("EnumNames", span)),
            (None, None) => None,
        };
        let krate = type_attr.krate.unwrap_or_default();
        if let Some(param) = input.generics.params.first() {
            return Err(syn::Error::new_spanned(
                param,
                "a form type has no generic parameters: write the concrete field types",
            ));
        }
        let shape = match &input.data {
            Data::Struct(data) => Shape::Form(fields(&input.ident, &data.fields, errors)?),
            Data::Enum(data) => {
                if data.variants.is_empty() {
                    return Err(syn::Error::new_spanned(
                        &input.ident,
                        "a choice enum needs at least one variant to pick",
                    ));
                }
                Shape::Choice(
                    data.variants
                        .iter()
                        .filter_map(|v| choice(v, errors))
                        .collect(),
                )
            }
            Data::Union(data) => {
                return Err(syn::Error::new_spanned(
                    data.union_token,
                    "#[derive(Form)] works on a struct with named fields (a form) or an enum \
                     of unit variants (a choice), not a union",
                ));
            }
        };
        Ok(Self {
            original: input,
            krate,
            shape,
            style,
        })
    }
}

fn fields<'a>(
    ident: &Ident,
    fields: &'a Fields,
    errors: &mut Errors,
) -> syn::Result<Vec<FormField<'a>>> {
    let Fields::Named(named) = fields else {
        return Err(syn::Error::new_spanned(
            ident,
            "a form is a struct with named fields (each field is a question); write \
             `struct Name { field: Type }`",
        ));
    };
    Ok(named
        .named
        .iter()
        .filter_map(|field| {
            let ident = field.ident.as_ref()?;
            let attr = FormAttr::from_attrs(&field.attrs, Place::Field, errors);
            Some(FormField {
                ident,
                name: attr
                    .rename
                    .as_ref()
                    .map_or_else(|| ident.unraw().to_string(), syn::LitStr::value),
                ty: &field.ty,
                description: join_doc(&doc_lines(&field.attrs)),
                attr,
            })
        })
        .collect())
}

fn choice<'a>(variant: &'a syn::Variant, errors: &mut Errors) -> Option<Choice<'a>> {
    let attr = FormAttr::from_attrs(&variant.attrs, Place::Variant, errors);
    if !matches!(variant.fields, Fields::Unit) {
        errors.spanned(
            &variant.fields,
            "a choice is a unit variant (the user picks it, it carries nothing); ask for the \
             data in a form struct of its own",
        );
        return None;
    }
    let name = variant.ident.unraw().to_string();
    let doc_title = doc_lines(&variant.attrs)
        .into_iter()
        .map(|line| line.trim().trim_end_matches('.').to_owned())
        .find(|line| !line.is_empty());
    Some(Choice {
        ident: &variant.ident,
        value: attr
            .value
            .as_ref()
            .map_or_else(|| name.clone(), LitStrExt::text),
        title: attr
            .title
            .as_ref()
            .map(LitStrExt::text)
            .or(doc_title)
            .unwrap_or(name),
    })
}

/// `LitStr::value` as a function value.
trait LitStrExt {
    fn text(&self) -> String;
}

impl LitStrExt for syn::LitStr {
    fn text(&self) -> String {
        self.value()
    }
}
