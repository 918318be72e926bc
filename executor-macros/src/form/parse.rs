//! Syntax of `#[form(…)]` on the type, its fields and its variants. Syntax only: every key
//! keeps its span, and every bad key is reported (the other keys are still read).

use proc_macro2::Span;
use syn::meta::ParseNestedMeta;
use syn::{Attribute, Expr, LitInt, LitStr};

use crate::attr::{self, Keys, set_once};
use crate::diag::Errors;
use crate::krate::CratePath;

/// Where a `#[form]` attribute sits; decides which keys it takes.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// On the struct or enum: `crate`.
    Type,
    /// On a field of a struct.
    Field,
    /// On a variant of a choice enum.
    Variant,
}

const TYPE: Keys = Keys {
    what: "#[form]",
    keys: &["crate", "untitled", "enum_names"],
};
const FIELD: Keys = Keys {
    what: "#[form]",
    keys: &[
        "title",
        "default",
        "min",
        "max",
        "min_length",
        "max_length",
        "format",
        "min_items",
        "max_items",
        "not_secret",
        "rename",
    ],
};
const VARIANT: Keys = Keys {
    what: "#[form]",
    keys: &["title", "value"],
};

impl Place {
    fn keys(self) -> &'static Keys {
        match self {
            Self::Type => &TYPE,
            Self::Field => &FIELD,
            Self::Variant => &VARIANT,
        }
    }
}

/// A bound or count with the key that set it: `(key, value)`, spans kept for the diagnostic
/// of a setting on the wrong field type.
pub struct Setting<T> {
    pub key: syn::Ident,
    pub value: T,
}

/// Everything the `#[form]` attributes on one node said, with spans.
#[derive(Default)]
pub struct FormAttr {
    pub krate: Option<CratePath>,
    pub title: Option<LitStr>,
    /// The variant's wire value (`value = "…"`).
    pub value: Option<LitStr>,
    pub default: Option<Setting<Expr>>,
    pub min: Option<Setting<Expr>>,
    pub max: Option<Setting<Expr>>,
    pub min_length: Option<Setting<LitInt>>,
    pub max_length: Option<Setting<LitInt>>,
    pub format: Option<Setting<LitStr>>,
    pub min_items: Option<Setting<LitInt>>,
    pub max_items: Option<Setting<LitInt>>,
    pub not_secret: Option<Span>,
    /// The field's name in the form (`rename = "camelCase"`).
    pub rename: Option<LitStr>,
    /// On a choice enum: `untitled` (a plain `enum`) or `enum_names` (the legacy form).
    pub untitled: Option<Span>,
    pub enum_names: Option<Span>,
}

impl FormAttr {
    /// Reads every `#[form(…)]` among `attrs`.
    pub fn from_attrs(attrs: &[Attribute], place: Place, errors: &mut Errors) -> Self {
        let mut out = Self::default();
        let usage = || {
            format!(
                "write `#[form(key = …)]` with keys from {}",
                place.keys().list()
            )
        };
        attr::parse_lists(attrs, "form", usage, errors, |meta| {
            out.parse_key(meta, place)
        });
        out
    }

    fn parse_key(&mut self, meta: &ParseNestedMeta<'_>, place: Place) -> syn::Result<()> {
        let Some(ident) = meta.path.get_ident().cloned() else {
            return Err(place.keys().error(meta));
        };
        let key = ident.to_string();
        if !place.keys().keys.contains(&key.as_str()) {
            return Err(misplaced_or_unknown(meta, &key, place));
        }
        match key.as_str() {
            "crate" => set_once(&mut self.krate, meta, |m| {
                CratePath::parse_value(m.value()?)
            }),
            "title" => set_once(&mut self.title, meta, |m| attr::string(m, "Your name")),
            "value" => set_once(&mut self.value, meta, |m| attr::string(m, "red")),
            "format" => set_once(&mut self.format, meta, |m| {
                attr::string(m, "email").map(|value| Setting {
                    key: ident.clone(),
                    value,
                })
            }),
            "default" => set_once(&mut self.default, meta, |m| {
                expr(m).map(|value| Setting {
                    key: ident.clone(),
                    value,
                })
            }),
            "min" => set_once(&mut self.min, meta, |m| {
                expr(m).map(|value| Setting {
                    key: ident.clone(),
                    value,
                })
            }),
            "max" => set_once(&mut self.max, meta, |m| {
                expr(m).map(|value| Setting {
                    key: ident.clone(),
                    value,
                })
            }),
            "min_length" => set_once(&mut self.min_length, meta, |m| {
                count(m).map(|value| Setting {
                    key: ident.clone(),
                    value,
                })
            }),
            "max_length" => set_once(&mut self.max_length, meta, |m| {
                count(m).map(|value| Setting {
                    key: ident.clone(),
                    value,
                })
            }),
            "min_items" => set_once(&mut self.min_items, meta, |m| {
                count(m).map(|value| Setting {
                    key: ident.clone(),
                    value,
                })
            }),
            "max_items" => set_once(&mut self.max_items, meta, |m| {
                count(m).map(|value| Setting {
                    key: ident.clone(),
                    value,
                })
            }),
            "not_secret" => set_once(&mut self.not_secret, meta, |m| attr::bare(m, "form")),
            "rename" => set_once(&mut self.rename, meta, |m| attr::string(m, "camelCase")),
            "untitled" => set_once(&mut self.untitled, meta, |m| attr::bare(m, "form")),
            "enum_names" => set_once(&mut self.enum_names, meta, |m| attr::bare(m, "form")),
            _ => Err(place.keys().error(meta)),
        }
    }
}

/// `key = <expression>`.
fn expr(meta: &ParseNestedMeta<'_>) -> syn::Result<Expr> {
    let key = attr::path_text(&meta.path);
    if !meta.input.peek(syn::Token![=]) {
        return Err(meta.error(format!("`{key}` takes a value: `{key} = …`")));
    }
    meta.value()?.parse()
}

/// `key = <unsigned integer>`.
fn count(meta: &ParseNestedMeta<'_>) -> syn::Result<LitInt> {
    let key = attr::path_text(&meta.path);
    if !meta.input.peek(syn::Token![=]) {
        return Err(meta.error(format!("`{key}` takes a count: `{key} = 3`")));
    }
    let value = meta.value()?;
    if value.peek(LitInt) {
        let lit: LitInt = value.parse()?;
        lit.base10_parse::<u64>()?;
        return Ok(lit);
    }
    let other: Expr = value.parse()?;
    Err(syn::Error::new_spanned(
        other,
        format!("expected a whole number: `{key} = 3`"),
    ))
}

fn misplaced_or_unknown(meta: &ParseNestedMeta<'_>, key: &str, place: Place) -> syn::Error {
    let message = match (key, place) {
        ("crate", _) => {
            "`crate` goes on the type: write `#[form(crate = ::path::to::tool_executor)]` above it"
                .to_owned()
        }
        ("value", _) => "`value` goes on a variant of a choice enum".to_owned(),
        ("untitled" | "enum_names", _) => {
            format!("`{key}` goes on the choice enum itself: write `#[form({key})]` above `enum`")
        }
        (other, Place::Type | Place::Variant) if FIELD.keys.contains(&other) => {
            format!("`{other}` goes on a field of a form struct")
        }
        _ => return place.keys().error(meta),
    };
    meta.error(message)
}

/// The `crate = …` path, read without reporting errors (the model reports them): what the
/// fallback uses before the model exists.
pub fn crate_path_lenient(attrs: &[Attribute]) -> CratePath {
    let mut errors = Errors::default();
    FormAttr::from_attrs(attrs, Place::Type, &mut errors)
        .krate
        .unwrap_or_default()
}
