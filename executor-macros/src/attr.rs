//! The attribute-key toolkit every attribute parser shares (`#[tool]`, `#[arg]`, `#[tools]`,
//! `#[failure]`, `#[agent]` and its `skill(…)`/`provider(…)`): the known keys of an attribute
//! and the unknown-key message with a did-you-mean that knows the words users reach for, a
//! key parser that reports every bad key and goes on, and the value parsers (set-once, string,
//! flag, duration) that keep the span of what they read.

use proc_macro2::{Span, TokenStream, TokenTree};
use syn::meta::ParseNestedMeta;
use syn::{LitBool, LitStr, Token};

use crate::diag::Errors;

/// The keys one attribute (or one nested list) takes.
pub struct Keys {
    /// How the attribute reads in messages: `#[tool]`, `skill`.
    pub what: &'static str,
    pub keys: &'static [&'static str],
}

/// Words users write for a key they mean, from other libraries and protocols. A synonym is
/// offered only when its key is one the attribute takes. `retry=` is `retry` with a value.
const SYNONYMS: &[(&str, &str)] = &[
    // #[failure] classes: ordinary = retryable, terminal = stop, unhandled = let another try.
    ("fatal", "terminal"),
    ("permanent", "terminal"),
    ("non_retryable", "terminal"),
    ("not_retryable", "terminal"),
    ("abort", "terminal"),
    ("stop", "terminal"),
    ("retryable", "ordinary"),
    ("retriable", "ordinary"),
    ("transient", "ordinary"),
    ("temporary", "ordinary"),
    ("recoverable", "ordinary"),
    ("retry", "ordinary"),
    ("retry=", "retry_after"),
    ("retry_delay", "retry_after"),
    ("retry_in", "retry_after"),
    ("backoff", "retry_after"),
    ("delay", "retry_after"),
    ("fallback", "unhandled"),
    ("unsupported", "unhandled"),
    ("not_handled", "unhandled"),
    ("passthrough", "unhandled"),
    ("secret", "redact"),
    ("sensitive", "redact"),
    ("hidden", "redact"),
    ("private", "redact"),
    ("details", "data"),
    ("payload", "data"),
    ("structured", "data"),
    ("ignore", "skip"),
    ("exclude", "skip"),
    ("error_code", "code"),
    ("category", "kind"),
    ("type", "kind"),
    // #[tool] and #[arg].
    ("desc", "description"),
    ("doc", "description"),
    ("about", "description"),
    ("summary", "description"),
    ("help", "description"),
    ("readonly", "read_only"),
    ("dangerous", "destructive"),
    ("mutating", "destructive"),
    ("external", "open_world"),
    ("deadline", "timeout"),
    ("timeout_ms", "timeout"),
    ("time_limit", "timeout"),
    ("long_running", "task"),
    ("background", "task"),
    ("poll_interval", "poll"),
    ("lifetime", "ttl"),
    ("label", "title"),
    ("display_name", "title"),
    ("rename", "name"),
    ("name", "rename"),
    ("alias", "rename"),
    ("optional", "default"),
    ("default_value", "default"),
    ("krate", "crate"),
    ("crate_path", "crate"),
    // #[form].
    ("minimum", "min"),
    ("maximum", "max"),
    ("min_len", "min_length"),
    ("max_len", "max_length"),
    ("public", "not_secret"),
    // #[agent].
    ("title", "name"),
    ("skills", "skill"),
    ("stream", "streaming"),
    ("push", "push_notifications"),
    ("docs", "documentation_url"),
    ("documentation", "documentation_url"),
    ("icon", "icon_url"),
    ("organization", "provider"),
    ("tag", "tags"),
    ("example", "examples"),
];

impl Keys {
    /// `unknown #[failure] key `fatal`; did you mean `terminal`? expected one of …`.
    pub fn unknown(&self, key: &str, has_value: bool) -> String {
        let hint = self
            .suggest(key, has_value)
            .map(|k| format!("did you mean `{k}`? "))
            .unwrap_or_default();
        format!(
            "unknown {} key `{key}`; {hint}expected one of {}",
            self.what,
            self.list()
        )
    }

    /// The unknown-key error at the key.
    pub fn error(&self, meta: &ParseNestedMeta<'_>) -> syn::Error {
        let has_value = meta.input.peek(Token![=]) || meta.input.peek(syn::token::Paren);
        meta.error(self.unknown(&path_text(&meta.path), has_value))
    }

    /// The key the user most likely meant: a known synonym, the same words in another case
    /// (`readOnlyHint`, `read-only`), or a key within two edits.
    pub fn suggest(&self, key: &str, has_value: bool) -> Option<&'static str> {
        let normal = normalize(key);
        let known = |k: &&str| self.keys.contains(k);
        let synonym = |word: &str| {
            SYNONYMS
                .iter()
                .filter(|(w, k)| *w == word && known(k))
                .map(|(_, k)| *k)
                .next()
        };
        let valued = has_value.then(|| synonym(&format!("{normal}="))).flatten();
        valued
            .or_else(|| synonym(&normal))
            .or_else(|| self.keys.iter().copied().find(|k| *k == normal))
            .or_else(|| {
                let bare = normal.strip_suffix("_hint")?;
                self.keys.iter().copied().find(|k| *k == bare)
            })
            .or_else(|| {
                self.keys
                    .iter()
                    .copied()
                    .map(|k| (edit_distance(k, key), k))
                    .filter(|(d, _)| *d <= 2 && *d < key.len())
                    .min_by_key(|(d, _)| *d)
                    .map(|(_, k)| k)
            })
    }

    /// `` `a`, `b`, `c` ``.
    pub fn list(&self) -> String {
        key_list(self.keys)
    }
}

/// `` `a`, `b`, `c` ``.
pub fn key_list(keys: &[&str]) -> String {
    keys.iter()
        .map(|k| format!("`{k}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// `readOnlyHint`, `Read-Only` → `read_only_hint`, `read_only`.
fn normalize(key: &str) -> String {
    let mut out = String::with_capacity(key.len() + 4);
    let mut prev_lower = false;
    for c in key.trim_start_matches("r#").chars() {
        if c.is_ascii_uppercase() {
            if prev_lower {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
            prev_lower = false;
        } else if c == '-' {
            out.push('_');
            prev_lower = false;
        } else {
            out.push(c);
            prev_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
        }
    }
    out
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

/// A key path as the user wrote it, for messages: `krate`, `a::b`.
pub fn path_text(path: &syn::Path) -> String {
    quote::quote!(#path).to_string().replace(' ', "")
}

/// The key's identifier text (`""` for a path such as `a::b`, which no attribute takes).
pub fn key_of(meta: &ParseNestedMeta<'_>) -> String {
    meta.path
        .get_ident()
        .map(ToString::to_string)
        .unwrap_or_default()
}

/// The key's span.
pub fn key_span(meta: &ParseNestedMeta<'_>) -> Span {
    meta.path
        .get_ident()
        .map_or_else(|| syn::spanned::Spanned::span(&meta.path), syn::Ident::span)
}

/// Runs `key` for every key of `args` (an attribute's arguments), reporting each bad key in
/// `errors` and going on with the next one.
pub fn parse_args(
    args: TokenStream,
    errors: &mut Errors,
    mut key: impl FnMut(&ParseNestedMeta<'_>, &mut Errors) -> syn::Result<()>,
) {
    if args.is_empty() {
        return;
    }
    let errors_ref = &mut *errors;
    let result = syn::parse::Parser::parse2(
        syn::meta::parser(|meta| recover(&meta, errors_ref, &mut key)),
        args,
    );
    if let Err(e) = result {
        errors.push(e);
    }
}

/// Reads every `#[name(…)]` among `attrs` through `key`, as [`parse_args`] does; an
/// attribute that is not a list (`#[name]`, `#[name = …]`) is one error, `usage()`, at it.
pub fn parse_lists(
    attrs: &[syn::Attribute],
    name: &str,
    usage: impl Fn() -> String,
    errors: &mut Errors,
    mut key: impl FnMut(&ParseNestedMeta<'_>) -> syn::Result<()>,
) {
    for attr in attrs.iter().filter(|a| a.path().is_ident(name)) {
        let syn::Meta::List(list) = &attr.meta else {
            errors.spanned(&attr.meta, usage());
            continue;
        };
        parse_args(list.tokens.clone(), errors, |meta, _| key(meta));
    }
}

/// As [`parse_args`], for the `( … )` after a key: `skill(id = "…", …)`.
pub fn parse_nested(
    meta: &ParseNestedMeta<'_>,
    errors: &mut Errors,
    mut key: impl FnMut(&ParseNestedMeta<'_>, &mut Errors) -> syn::Result<()>,
) -> syn::Result<()> {
    meta.parse_nested_meta(|inner| recover(&inner, errors, &mut key))
}

fn recover(
    meta: &ParseNestedMeta<'_>,
    errors: &mut Errors,
    key: &mut impl FnMut(&ParseNestedMeta<'_>, &mut Errors) -> syn::Result<()>,
) -> syn::Result<()> {
    if let Err(e) = key(meta, errors) {
        errors.push(e);
        skip_value(meta)?;
    }
    Ok(())
}

/// After a bad key, skips its value so the keys after it are still read.
fn skip_value(meta: &ParseNestedMeta<'_>) -> syn::Result<()> {
    while !meta.input.is_empty() && !meta.input.peek(Token![,]) {
        meta.input.parse::<TokenTree>()?;
    }
    Ok(())
}

/// Stores the value of the current key in `slot`, refusing a second occurrence.
pub fn set_once<T>(
    slot: &mut Option<T>,
    meta: &ParseNestedMeta<'_>,
    parse: impl FnOnce(&ParseNestedMeta<'_>) -> syn::Result<T>,
) -> syn::Result<()> {
    if slot.is_some() {
        return Err(meta.error(format!(
            "duplicate `{}` key; write it once",
            path_text(&meta.path)
        )));
    }
    *slot = Some(parse(meta)?);
    Ok(())
}

/// `key = "…"`: the string literal, or an error showing `key = "sample"`.
pub fn string(meta: &ParseNestedMeta<'_>, sample: &str) -> syn::Result<LitStr> {
    let key = path_text(&meta.path);
    if !meta.input.peek(Token![=]) {
        return Err(meta.error(format!("`{key}` takes a string: `{key} = \"{sample}\"`")));
    }
    let value = meta.value()?;
    // `peek` and `parse` see through the invisible group a `macro_rules!` `$x:literal` makes.
    if value.peek(LitStr) {
        return value.parse();
    }
    let other: syn::Expr = value.parse()?;
    Err(syn::Error::new_spanned(
        other,
        format!("expected a string: `{key} = \"{sample}\"`"),
    ))
}

/// A flag written bare (`read_only`) or with a value (`read_only = false`), with the key's span.
#[derive(Clone, Copy)]
pub struct Flag {
    pub value: bool,
    pub span: Span,
}

/// Parses the current key as a [`Flag`].
pub fn flag(meta: &ParseNestedMeta<'_>) -> syn::Result<Flag> {
    let span = key_span(meta);
    if !meta.input.peek(Token![=]) {
        if meta.input.peek(syn::token::Paren) {
            let key = path_text(&meta.path);
            return Err(meta.error(format!(
                "`{key}` is a flag: write `{key}` or `{key} = false`"
            )));
        }
        return Ok(Flag { value: true, span });
    }
    let key = path_text(&meta.path);
    let value = meta.value()?;
    if value.peek(LitBool) {
        let lit: LitBool = value.parse()?;
        return Ok(Flag {
            value: lit.value,
            span,
        });
    }
    let other: syn::Expr = value.parse()?;
    Err(syn::Error::new_spanned(
        other,
        format!(
            "expected `true` or `false`: write `{key}` to turn it on, `{key} = false` to turn an inherited one off"
        ),
    ))
}

/// A key that takes no value (`#[failure(terminal)]`).
pub fn bare(meta: &ParseNestedMeta<'_>, attr: &str) -> syn::Result<Span> {
    if meta.input.peek(Token![=]) || meta.input.peek(syn::token::Paren) {
        let key = path_text(&meta.path);
        return Err(meta.error(format!("`{key}` takes no value; write `#[{attr}({key})]`")));
    }
    Ok(key_span(meta))
}

/// `key = "5s"`: milliseconds and the literal. `sample` is a typical value for the key, `zero`
/// the message for a duration of zero (what it would mean, what to write instead).
pub fn duration(
    meta: &ParseNestedMeta<'_>,
    sample: &str,
    zero: &str,
) -> syn::Result<(u64, LitStr)> {
    let lit = string(meta, sample)?;
    let key = path_text(&meta.path);
    let ms = duration_ms(&key, &lit.value(), zero).map_err(|e| syn::Error::new(lit.span(), e))?;
    Ok((ms, lit))
}

/// Parses `"500ms"`, `"5s"`, `"2m"`, `"1h"` into milliseconds (the one duration parser).
pub fn duration_ms(key: &str, text: &str, zero: &str) -> Result<u64, String> {
    let trimmed = text.trim();
    let split = trimmed
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(trimmed.len());
    let (number, unit) = trimmed.split_at(split);
    let invalid = || {
        format!(
            "invalid duration `{trimmed}`; write a whole number with a unit: `\"500ms\"`, `\"5s\"`, `\"2m\"` or `\"1h\"`"
        )
    };
    let factor: u64 = match unit {
        "ms" => 1,
        "s" => 1000,
        "m" => 60_000,
        "h" => 3_600_000,
        _ => return Err(invalid()),
    };
    if number.is_empty() {
        return Err(invalid());
    }
    if number.bytes().all(|b| b == b'0') {
        return Err(format!("`{key}` of zero {zero}"));
    }
    number
        .parse::<u64>()
        .ok()
        .and_then(|n| n.checked_mul(factor))
        .ok_or_else(|| {
            format!(
                "`{key} = \"{trimmed}\"` does not fit in 64-bit milliseconds; write seconds or minutes, e.g. `\"30s\"`"
            )
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    const FAILURE: Keys = Keys {
        what: "#[failure]",
        keys: &["ordinary", "terminal", "unhandled", "retry_after", "code"],
    };
    const TOOL: Keys = Keys {
        what: "#[tool]",
        keys: &["name", "description", "read_only", "open_world", "timeout"],
    };

    #[test]
    fn suggestions() {
        assert_eq!(FAILURE.suggest("fatal", false), Some("terminal"));
        assert_eq!(FAILURE.suggest("permanent", false), Some("terminal"));
        assert_eq!(FAILURE.suggest("retryable", false), Some("ordinary"));
        assert_eq!(FAILURE.suggest("retry", false), Some("ordinary"));
        assert_eq!(FAILURE.suggest("retry", true), Some("retry_after"));
        assert_eq!(FAILURE.suggest("retyr_after", true), Some("retry_after"));
        assert_eq!(TOOL.suggest("readOnlyHint", false), Some("read_only"));
        assert_eq!(TOOL.suggest("open-world", false), Some("open_world"));
        assert_eq!(TOOL.suggest("desc", true), Some("description"));
        // A synonym whose key this attribute does not take is not offered.
        assert_eq!(TOOL.suggest("fatal", false), None);
        assert_eq!(FAILURE.suggest("colour", false), None);
        assert_eq!(
            FAILURE.unknown("fatal", false),
            "unknown #[failure] key `fatal`; did you mean `terminal`? expected one of `ordinary`, `terminal`, `unhandled`, `retry_after`, `code`"
        );
    }

    /// A `macro_rules!` `$name:literal` arrives wrapped in an invisible group.
    #[test]
    fn strings_through_macro_rules() {
        use proc_macro2::{Delimiter, Group, Literal, TokenTree};
        let lit = TokenTree::Group(Group::new(
            Delimiter::None,
            TokenTree::Literal(Literal::string("get_weather")).into(),
        ));
        let args = quote::quote!(name = #lit, read_only = true);
        let (mut name, mut read_only) = (None, None);
        let mut errors = Errors::default();
        parse_args(args, &mut errors, |meta, _| match key_of(meta).as_str() {
            "name" => set_once(&mut name, meta, |m| string(m, "…")),
            _ => set_once(&mut read_only, meta, flag),
        });
        assert!(errors.finish().is_ok());
        assert_eq!(
            name.map(|l: LitStr| l.value()).as_deref(),
            Some("get_weather")
        );
        assert!(read_only.is_some_and(|f| f.value));
    }

    #[test]
    fn durations() {
        let ms = |t| duration_ms("timeout", t, "is no limit");
        assert_eq!(ms("5s"), Ok(5000));
        assert_eq!(ms("200ms"), Ok(200));
        assert_eq!(ms("2m"), Ok(120_000));
        assert_eq!(ms(" 1h "), Ok(3_600_000));
        assert!(ms("5 seconds").unwrap_err().starts_with("invalid duration"));
        assert!(ms("1.5s").unwrap_err().starts_with("invalid duration"));
        assert!(ms("s").unwrap_err().starts_with("invalid duration"));
        assert_eq!(ms("0ms"), Err("`timeout` of zero is no limit".to_owned()));
        assert!(
            ms("99999999999999999h")
                .unwrap_err()
                .contains("does not fit in 64-bit milliseconds")
        );
    }
}
