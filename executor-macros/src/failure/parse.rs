//! Syntax of `#[failure(…)]` on the type, its variants and their fields. Syntax only: every key
//! keeps its span, and every bad key is reported (the rest of its attribute is skipped, the
//! other attributes are still read).

use crate::meta::{path_text, set_once};
use proc_macro2::{Ident, Span, TokenTree};
use syn::meta::ParseNestedMeta;
use syn::{Attribute, Lit, LitBool, LitStr, Meta, Token};

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

impl Place {
    fn keys(self) -> &'static [&'static str] {
        match self {
            Self::Enum => &[
                "ordinary",
                "terminal",
                "unhandled",
                "kind",
                "retry_after",
                "redact",
                "data",
                "crate",
            ],
            Self::Variant => &[
                "ordinary",
                "terminal",
                "unhandled",
                "code",
                "kind",
                "retry_after",
                "redact",
                "data",
            ],
            Self::Struct => &[
                "ordinary",
                "terminal",
                "unhandled",
                "code",
                "kind",
                "retry_after",
                "redact",
                "data",
                "crate",
            ],
            Self::Field => &["skip"],
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
    /// `redact` / `redact = bool`, and the key's span.
    pub redact: Option<(bool, Span)>,
    /// `data` / `data = bool`, and the key's span.
    pub data: Option<(bool, Span)>,
    /// `skip` on a field.
    pub skip: Option<Span>,
    pub krate: Option<CratePath>,
}

impl FailureAttr {
    /// Reads every `#[failure(…)]` among `attrs`.
    pub fn from_attrs(attrs: &[Attribute], place: Place, errors: &mut Errors) -> Self {
        let mut out = Self::default();
        for attr in attrs.iter().filter(|a| a.path().is_ident("failure")) {
            let Meta::List(list) = &attr.meta else {
                errors.spanned(
                    &attr.meta,
                    format!(
                        "write `#[failure(key, …)]` with keys from {}",
                        key_list(place.keys())
                    ),
                );
                continue;
            };
            let result = list.parse_nested_meta(|meta| {
                if let Err(e) = out.parse_key(&meta, place) {
                    errors.push(e);
                    skip_rest(&meta)?;
                }
                Ok(())
            });
            if let Err(e) = result {
                errors.push(e);
            }
        }
        out
    }

    fn parse_key(&mut self, meta: &ParseNestedMeta<'_>, place: Place) -> syn::Result<()> {
        let Some(ident) = meta.path.get_ident() else {
            return Err(meta.error(unknown_key(&path_text(&meta.path), place)));
        };
        let key = ident.to_string();
        if !place.keys().contains(&key.as_str()) {
            return Err(meta.error(misplaced_or_unknown(&key, place)));
        }
        match key.as_str() {
            "ordinary" => self.set_class(meta, ident, Class::Ordinary),
            "terminal" => self.set_class(meta, ident, Class::Terminal),
            "unhandled" => self.set_class(meta, ident, Class::Unhandled),
            "code" => set_once(&mut self.code, meta, &key, |m| {
                parse_str(m, "code = \"not_found\"")
            }),
            "retry_after" => set_once(&mut self.retry_after, meta, &key, parse_duration),
            "kind" => set_once(&mut self.kind, meta, &key, |m| {
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
            "redact" => set_once(&mut self.redact, meta, &key, parse_flag),
            "data" => set_once(&mut self.data, meta, &key, parse_flag),
            "skip" => set_once(&mut self.skip, meta, &key, |m| {
                reject_value(m, "skip")?;
                Ok(ident.span())
            }),
            "crate" => set_once(&mut self.krate, meta, &key, |m| {
                CratePath::parse_value(m.value()?)
            }),
            _ => Err(meta.error(unknown_key(&key, place))),
        }
    }

    fn set_class(
        &mut self,
        meta: &ParseNestedMeta<'_>,
        ident: &Ident,
        class: Class,
    ) -> syn::Result<()> {
        reject_value(meta, class.name())?;
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

fn parse_str(meta: &ParseNestedMeta<'_>, example: &str) -> syn::Result<LitStr> {
    let value = meta.value()?;
    match value.parse::<syn::Expr>()? {
        syn::Expr::Lit(syn::ExprLit {
            lit: Lit::Str(s), ..
        }) => Ok(s),
        other => Err(syn::Error::new_spanned(
            other,
            format!("expected a string: `{example}`"),
        )),
    }
}

fn parse_duration(meta: &ParseNestedMeta<'_>) -> syn::Result<(u64, LitStr)> {
    let lit = parse_str(meta, "retry_after = \"200ms\"")?;
    let text = lit.value();
    let digits = text.trim().trim_end_matches(|c: char| !c.is_ascii_digit());
    if !digits.is_empty() && digits.bytes().all(|b| b == b'0') {
        return Err(syn::Error::new(
            lit.span(),
            "`retry_after` of zero is the same as no hint; remove it, or write a wait such as `\"200ms\"`",
        ));
    }
    let trimmed = text.trim();
    let lead = trimmed.len()
        - trimmed
            .trim_start_matches(|c: char| c.is_ascii_digit())
            .len();
    let factor = match &trimmed[lead..] {
        "ms" => Some(1),
        "s" => Some(1000),
        "m" => Some(60_000),
        "h" => Some(3_600_000),
        _ => None,
    };
    if let Some(factor) = factor
        && lead > 0
        && trimmed[..lead]
            .parse::<u64>()
            .ok()
            .and_then(|n| n.checked_mul(factor))
            .is_none()
    {
        return Err(syn::Error::new(
            lit.span(),
            format!(
                "`retry_after = \"{trimmed}\"` does not fit in 64-bit milliseconds; a retry hint is seconds or minutes, e.g. `\"30s\"`"
            ),
        ));
    }
    let ms = crate::util::parse_duration_ms(&text).map_err(|e| syn::Error::new(lit.span(), e))?;
    Ok((ms, lit))
}

fn parse_flag(meta: &ParseNestedMeta<'_>) -> syn::Result<(bool, Span)> {
    let span = meta
        .path
        .get_ident()
        .map_or_else(Span::call_site, Ident::span);
    if meta.input.peek(Token![=]) {
        let key = path_text(&meta.path);
        match meta.value()?.parse::<syn::Expr>()? {
            syn::Expr::Lit(syn::ExprLit {
                lit: Lit::Bool(LitBool { value, .. }),
                ..
            }) => Ok((value, span)),
            other => Err(syn::Error::new_spanned(
                other,
                format!(
                    "expected `true` or `false`: write `{key}` to turn it on, `{key} = false` to turn an inherited one off"
                ),
            )),
        }
    } else {
        Ok((true, span))
    }
}

fn reject_value(meta: &ParseNestedMeta<'_>, key: &str) -> syn::Result<()> {
    if meta.input.peek(Token![=]) || meta.input.peek(syn::token::Paren) {
        return Err(meta.error(format!("`{key}` takes no value; write `#[failure({key})]`")));
    }
    Ok(())
}

/// After a bad key, skips its value so the keys after it are still read.
fn skip_rest(meta: &ParseNestedMeta<'_>) -> syn::Result<()> {
    while !meta.input.is_empty() && !meta.input.peek(Token![,]) {
        meta.input.parse::<TokenTree>()?;
    }
    Ok(())
}

fn misplaced_or_unknown(key: &str, place: Place) -> String {
    match (key, place) {
        ("code", Place::Enum) => {
            "`code` goes on each variant, not on the enum: every variant has its own code".to_owned()
        }
        ("crate", Place::Variant) => {
            "`crate` goes on the enum: write `#[failure(crate = ::path::to::executor_core)]` above `enum`".to_owned()
        }
        ("skip", _) => "`skip` goes on a field, to leave it out of the variant's `data`".to_owned(),
        (other, Place::Field) if Place::Struct.keys().contains(&other) => format!(
            "`{other}` goes on the variant or the type, not on a field; a field takes only `#[failure(skip)]`"
        ),
        _ => unknown_key(key, place),
    }
}

fn unknown_key(key: &str, place: Place) -> String {
    let keys = place.keys();
    let hint = keys
        .iter()
        .filter(|k| edit_distance(k, key) <= 2)
        .min_by_key(|k| edit_distance(k, key))
        .map(|k| format!("did you mean `{k}`? "))
        .unwrap_or_default();
    format!(
        "unknown #[failure] key `{key}`; {hint}expected one of {}",
        key_list(keys)
    )
}

fn key_list(keys: &[&str]) -> String {
    keys.iter()
        .map(|k| format!("`{k}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Levenshtein distance, for "did you mean" hints on short keys.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (above + 1)
                .min(row[j] + 1)
                .min(diagonal + usize::from(ca != *cb));
            diagonal = above;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggestions() {
        assert_eq!(edit_distance("retry_after", "retyr_after"), 2);
        assert!(unknown_key("retyr_after", Place::Variant).contains("did you mean `retry_after`?"));
        assert!(!unknown_key("colour", Place::Variant).contains("did you mean"));
    }
}
