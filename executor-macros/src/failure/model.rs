//! The typed model of one `#[derive(ToolFailure)]` input: every variant with its settings
//! resolved (variant over enum over defaults), keeping the syntax nodes for spans.

use proc_macro2::{Ident, Span};
use syn::ext::IdentExt;
use syn::{Data, DeriveInput, Fields, Member, Type};

use super::parse::{Class, FailureAttr, Kind, Place};
use crate::diag::Errors;
use crate::krate::CratePath;

/// The type that derives `ToolFailure`, read.
pub struct FailureType<'a> {
    pub original: &'a DeriveInput,
    pub krate: CratePath,
    /// `#[failure]` on the enum (empty for a struct, whose attribute is its one variant's).
    pub defaults: FailureAttr,
    pub shape: Shape,
    pub variants: Vec<Variant<'a>>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    Enum,
    Struct,
}

/// One enum variant, or the struct itself.
pub struct Variant<'a> {
    /// The variant's (or the struct's) name.
    pub ident: &'a Ident,
    pub fields: &'a Fields,
    /// `#[failure]` on the variant itself.
    pub attr: FailureAttr,
    pub field_attrs: Vec<Field<'a>>,
    pub settings: Settings,
}

/// A field of a variant, as `data` sees it.
pub struct Field<'a> {
    /// `city` or `0`: how a pattern names it.
    pub member: Member,
    /// Its key in a `data` object (raw identifiers unprefixed).
    pub key: String,
    pub ty: &'a Type,
    pub skip: Option<Span>,
}

/// What the variant becomes, after inheritance.
pub struct Settings {
    pub class: Class,
    pub code: String,
    /// The `code = "…"` literal, or the variant's name for a derived code.
    pub code_span: Span,
    pub kind: Kind,
    /// Only on ordinary variants: an inherited hint does not reach a terminal one.
    pub retry_after_ms: Option<u64>,
    pub redact: bool,
    /// Whether the variant attaches data (false for a variant without fields that only
    /// inherits `data`).
    pub data: bool,
}

impl<'a> FailureType<'a> {
    /// Reads the input and every attribute in it, reporting every bad one. An error when the
    /// input cannot be modelled at all (a union).
    pub fn from_syn(input: &'a DeriveInput, errors: &mut Errors) -> syn::Result<Self> {
        let (shape, defaults, variants) = match &input.data {
            Data::Enum(data) => {
                let defaults = FailureAttr::from_attrs(&input.attrs, Place::Enum, errors);
                let variants = data
                    .variants
                    .iter()
                    .map(|v| {
                        Variant::from_syn(
                            &v.ident,
                            &v.fields,
                            &v.attrs,
                            Place::Variant,
                            &defaults,
                            errors,
                        )
                    })
                    .collect();
                (Shape::Enum, defaults, variants)
            }
            Data::Struct(data) => {
                let defaults = FailureAttr::default();
                let variant = Variant::from_syn(
                    &input.ident,
                    &data.fields,
                    &input.attrs,
                    Place::Struct,
                    &defaults,
                    errors,
                );
                (Shape::Struct, defaults, vec![variant])
            }
            Data::Union(data) => {
                return Err(syn::Error::new_spanned(
                    data.union_token,
                    "#[derive(ToolFailure)] works on an enum or a struct, not a union; \
                     wrap the union in a struct and derive on that",
                ));
            }
        };
        let krate = match shape {
            Shape::Enum => defaults.krate.clone(),
            Shape::Struct => variants
                .first()
                .and_then(|v: &Variant<'_>| v.attr.krate.clone()),
        };
        Ok(Self {
            original: input,
            krate: krate.unwrap_or_default(),
            defaults,
            shape,
            variants,
        })
    }

    /// Whether the type has generic parameters of any kind.
    pub fn is_generic(&self) -> bool {
        !self.original.generics.params.is_empty()
    }
}

impl<'a> Variant<'a> {
    fn from_syn(
        ident: &'a Ident,
        fields: &'a Fields,
        attrs: &[syn::Attribute],
        place: Place,
        defaults: &FailureAttr,
        errors: &mut Errors,
    ) -> Self {
        let attr = FailureAttr::from_attrs(attrs, place, errors);
        let field_attrs: Vec<Field<'a>> = fields
            .iter()
            .enumerate()
            .map(|(index, field)| {
                let skip = FailureAttr::from_attrs(&field.attrs, Place::Field, errors).skip;
                let (member, key) = match &field.ident {
                    Some(name) => (Member::Named(name.clone()), name.unraw().to_string()),
                    None => (Member::Unnamed(index.into()), index.to_string()),
                };
                Field {
                    member,
                    key,
                    ty: &field.ty,
                    skip,
                }
            })
            .collect();
        let has_data_fields = field_attrs.iter().any(|f| f.skip.is_none());
        let settings = Settings::resolve(ident, has_data_fields, &attr, defaults);
        Self {
            ident,
            fields,
            attr,
            field_attrs,
            settings,
        }
    }

    /// The fields that go into `data`.
    pub fn data_fields(&self) -> impl Iterator<Item = &Field<'a>> {
        self.field_attrs.iter().filter(|f| f.skip.is_none())
    }
}

impl Settings {
    // Input:  #[failure(terminal, redact)] enum E { #[failure(ordinary)] A, #[failure(kind = internal)] B }
    // Output: A: ordinary, redacted; B: terminal, internal, redacted.
    fn resolve(
        ident: &Ident,
        has_data_fields: bool,
        own: &FailureAttr,
        defaults: &FailureAttr,
    ) -> Self {
        let class = own
            .class
            .as_ref()
            .or(defaults.class.as_ref())
            .map_or(Class::Ordinary, |(c, _)| *c);
        let (code, code_span) = match &own.code {
            Some(lit) => (lit.value(), lit.span()),
            None => (snake_case(&ident.unraw().to_string()), ident.span()),
        };
        let kind = own
            .kind
            .as_ref()
            .or(defaults.kind.as_ref())
            .map_or(Kind::Tool, |(k, _)| *k);
        let retry_after_ms = match class {
            Class::Ordinary => own
                .retry_after
                .as_ref()
                .or(defaults.retry_after.as_ref())
                .map(|(ms, _)| *ms),
            Class::Terminal | Class::Unhandled => None,
        };
        let redact = own
            .redact
            .or(defaults.redact)
            .map_or(kind == Kind::Internal, |f| f.value);
        let data = match own.data {
            Some(flag) => flag.value,
            // An inherited `data` skips variants with nothing to serialize.
            None => defaults.data.is_some_and(|f| f.value) && has_data_fields,
        };
        Self {
            class,
            code,
            code_span,
            kind,
            retry_after_ms,
            redact,
            data,
        }
    }
}

/// `HTTPError` → `http_error`, `V2Failure` → `v2_failure`, `NotFound` → `not_found`.
pub fn snake_case(name: &str) -> String {
    let chars: Vec<char> = name.chars().collect();
    let mut out = String::with_capacity(name.len() + 4);
    for (i, &c) in chars.iter().enumerate() {
        if c.is_uppercase() {
            let prev = i.checked_sub(1).map(|j| chars[j]);
            let next_lower = chars.get(i + 1).is_some_and(|n| n.is_lowercase());
            let boundary = match prev {
                Some(p) if p.is_lowercase() || p.is_ascii_digit() => true,
                Some(p) if p.is_uppercase() => next_lower,
                _ => false,
            };
            if boundary {
                out.push('_');
            }
            out.extend(c.to_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// The longest code allowed; codes travel in specs, MCP `structuredContent` and A2A metadata.
pub const MAX_CODE_LEN: usize = 64;

/// A code is lowercase `snake_case`: `^[a-z][a-z0-9_]*$`, at most [`MAX_CODE_LEN`] bytes.
pub fn is_valid_code(code: &str) -> bool {
    let bytes = code.as_bytes();
    !bytes.is_empty()
        && bytes.len() <= MAX_CODE_LEN
        && bytes[0].is_ascii_lowercase()
        && bytes
            .iter()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || *b == b'_')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snake_cases() {
        for (input, expected) in [
            ("NotFound", "not_found"),
            ("HTTPError", "http_error"),
            ("IOError", "io_error"),
            ("V2Failure", "v2_failure"),
            ("Unavailable", "unavailable"),
            ("Parse_Error", "parse_error"),
            ("A", "a"),
            ("already_snake", "already_snake"),
        ] {
            assert_eq!(snake_case(input), expected, "{input}");
        }
    }

    #[test]
    fn codes() {
        assert!(is_valid_code("not_found"));
        assert!(is_valid_code("e404"));
        assert!(!is_valid_code("404"));
        assert!(!is_valid_code("Not_found"));
        assert!(!is_valid_code("not-found"));
        assert!(!is_valid_code(""));
        assert!(!is_valid_code(&"x".repeat(MAX_CODE_LEN + 1)));
        assert!(!is_valid_code("ünknown"));
    }
}
