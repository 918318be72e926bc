//! Syntax of `#[failure(…)]` on the type, its variants and their fields. Syntax only: every key
//! keeps its span, and every bad key is reported (the rest of its attribute is skipped, the
//! other attributes are still read).

use proc_macro2::{Ident, Span};
use syn::meta::ParseNestedMeta;
use syn::{Attribute, LitStr};

use crate::attr::{self, Flag, Keys, set_once};

use crate::diag::Errors;
use crate::krate::CratePath;

/// Where a `#[failure]` attribute sits; decides which keys it takes.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// On an enum: defaults for every variant, and `crate`.
    Enum,
    /// On one enum variant.
    Variant,
    /// On a struct: its settings, and `crate`.
    Struct,
    /// On a field of a variant or struct.
    Field,
}

/// Every key of a type or variant; the enum takes all but `code`, a variant all but `crate`.
const KEYS: &[&str] = &[
    "code",
    "ordinary",
    "terminal",
    "unhandled",
    "kind",
    "retry_after",
    "redact",
    "data",
    "crate",
];
const ENUM: Keys = Keys {
    what: "#[failure]",
    keys: KEYS.split_first().expect("non-empty").1,
};
const VARIANT: Keys = Keys {
    what: "#[failure]",
    keys: KEYS.split_last().expect("non-empty").1,
};
const STRUCT: Keys = Keys {
    what: "#[failure]",
    keys: KEYS,
};
const FIELD: Keys = Keys {
    what: "#[failure]",
    keys: &["skip"],
};

impl Place {
    fn keys(self) -> &'static Keys {
        match self {
            Self::Enum => &ENUM,
            Self::Variant => &VARIANT,
            Self::Struct => &STRUCT,
            Self::Field => &FIELD,
        }
    }
}

/// Ordinary (retry), terminal (stop) or unhandled (let a fallback executor serve the call).
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Class {
    Ordinary,
    Terminal,
    Unhandled,
}

impl Class {
    pub fn name(self) -> &'static str {
        match self {
            Self::Ordinary => "ordinary",
            Self::Terminal => "terminal",
            Self::Unhandled => "unhandled",
        }
    }
}

/// The `FailureKind`s a derive may pick (`unknown_tool` is the runtime's).
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    InvalidArguments,
    Timeout,
    Cancelled,
    Tool,
    Internal,
}

const KINDS: &str = "`invalid_arguments`, `timeout`, `cancelled`, `tool` or `internal`";

impl Kind {
    fn from_ident(ident: &Ident) -> syn::Result<Self> {
        Ok(match ident.to_string().as_str() {
            "invalid_arguments" => Self::InvalidArguments,
            "timeout" => Self::Timeout,
            "cancelled" => Self::Cancelled,
            "tool" => Self::Tool,
            "internal" => Self::Internal,
            "unknown_tool" => {
                return Err(syn::Error::new(
                    ident.span(),
                    "`kind = unknown_tool` is the runtime's, for a tool name nothing serves; \
                     to let a fallback executor take the call write `#[failure(unhandled)]`",
                ));
            }
            other => {
                return Err(syn::Error::new(
                    ident.span(),
                    format!("unknown failure kind `{other}`; expected {KINDS}"),
                ));
            }
        })
    }

    /// The `FailureKind` variant.
    pub fn variant(self) -> &'static str {
        match self {
            Self::InvalidArguments => "InvalidArguments",
            Self::Timeout => "Timeout",
            Self::Cancelled => "Cancelled",
            Self::Tool => "Tool",
            Self::Internal => "Internal",
        }
    }
}

/// Everything the `#[failure]` attributes on one node said, with spans.
#[derive(Default)]
pub struct FailureAttr {
    /// The class and the word that named it.
    pub class: Option<(Class, Ident)>,
    pub code: Option<LitStr>,
    /// Milliseconds, and the literal.
    pub retry_after: Option<(u64, LitStr)>,
    pub kind: Option<(Kind, Ident)>,
    /// `redact` / `redact = bool`.
    pub redact: Option<Flag>,
    /// `data` / `data = bool`.
    pub data: Option<Flag>,
    /// `skip` on a field.
    pub skip: Option<Span>,
    pub krate: Option<CratePath>,
}

impl FailureAttr {
    /// Reads every `#[failure(…)]` among `attrs`.
    pub fn from_attrs(attrs: &[Attribute], place: Place, errors: &mut Errors) -> Self {
        let mut out = Self::default();
        let usage = || {
            format!(
                "write `#[failure(key, …)]` with keys from {}",
                place.keys().list()
            )
        };
        attr::parse_lists(attrs, "failure", usage, errors, |meta| {
            out.parse_key(meta, place)
        });
        out
    }

    fn parse_key(&mut self, meta: &ParseNestedMeta<'_>, place: Place) -> syn::Result<()> {
        let Some(ident) = meta.path.get_ident() else {
            return Err(place.keys().error(meta));
        };
        let key = ident.to_string();
        if !place.keys().keys.contains(&key.as_str()) {
            return Err(misplaced_or_unknown(meta, &key, place));
        }
        match key.as_str() {
            "ordinary" => self.set_class(meta, ident, Class::Ordinary),
            "terminal" => self.set_class(meta, ident, Class::Terminal),
            "unhandled" => self.set_class(meta, ident, Class::Unhandled),
            "code" => set_once(&mut self.code, meta, |m| attr::string(m, "not_found")),
            "retry_after" => set_once(&mut self.retry_after, meta, |m| {
                attr::duration(
                    m,
                    "200ms",
                    "is the same as no hint; remove it, or write a wait such as `\"200ms\"`",
                )
            }),
            "kind" => set_once(&mut self.kind, meta, |m| {
                let value = m.value()?;
                if value.peek(LitStr) {
                    let lit: LitStr = value.parse()?;
                    return Err(syn::Error::new(
                        lit.span(),
                        format!("write the kind as a bare word: `kind = {}`", lit.value()),
                    ));
                }
                let ident: Ident = value.parse()?;
                Ok((Kind::from_ident(&ident)?, ident))
            }),
            "redact" => set_once(&mut self.redact, meta, attr::flag),
            "data" => set_once(&mut self.data, meta, attr::flag),
            "skip" => set_once(&mut self.skip, meta, |m| attr::bare(m, "failure")),
            "crate" => set_once(&mut self.krate, meta, |m| {
                CratePath::parse_value(m.value()?)
            }),
            _ => Err(place.keys().error(meta)),
        }
    }

    fn set_class(
        &mut self,
        meta: &ParseNestedMeta<'_>,
        ident: &Ident,
        class: Class,
    ) -> syn::Result<()> {
        attr::bare(meta, "failure")?;
        if let Some((first, _)) = &self.class {
            let message = if *first == class {
                format!("duplicate `{}`; write it once", class.name())
            } else {
                format!(
                    "two classes: `{}` and `{}`; a failure is one of `ordinary`, `terminal` or `unhandled`, keep one",
                    first.name(),
                    class.name()
                )
            };
            return Err(syn::Error::new(ident.span(), message));
        }
        self.class = Some((class, ident.clone()));
        Ok(())
    }
}

/// Reads `crate = …` from a type's attributes ignoring every error, for the fallback impl.
pub fn crate_path_lenient(attrs: &[Attribute]) -> CratePath {
    let mut errors = Errors::default();
    FailureAttr::from_attrs(attrs, Place::Struct, &mut errors)
        .krate
        .unwrap_or_default()
}

fn misplaced_or_unknown(meta: &ParseNestedMeta<'_>, key: &str, place: Place) -> syn::Error {
    let message = match (key, place) {
        ("code", Place::Enum) => {
            "`code` goes on each variant, not on the enum: every variant has its own code".to_owned()
        }
        ("crate", Place::Variant) => {
            "`crate` goes on the enum: write `#[failure(crate = ::path::to::tool_executor)]` above `enum`".to_owned()
        }
        ("skip", _) => "`skip` goes on a field, to leave it out of the variant's `data`".to_owned(),
        (other, Place::Field) if STRUCT.keys.contains(&other) => format!(
            "`{other}` goes on the variant or the type, not on a field; a field takes only `#[failure(skip)]`"
        ),
        _ => return place.keys().error(meta),
    };
    meta.error(message)
}
