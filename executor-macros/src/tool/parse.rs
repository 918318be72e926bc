//! Syntax of `#[tool(…)]` and `#[arg(…)]`. Every key keeps its span for diagnostics.

use crate::meta::{path_text, set_once};
use proc_macro2::{Span, TokenStream};
use syn::meta::ParseNestedMeta;
use syn::{Expr, LitBool, LitStr};

use crate::diag::Errors;
use crate::krate::CratePath;

const TOOL_KEYS: &str = "`name`, `title`, `description`, `read_only`, `destructive`, `idempotent`, `open_world`, `timeout`, `crate`";
const ARG_KEYS: &str = "`default`, `rename`, `description`";

/// A flag written bare (`read_only`) or with a value (`read_only = false`).
#[derive(Clone, Copy)]
pub struct Flag {
    pub value: bool,
}

/// `#[tool(…)]`.
#[derive(Default)]
pub struct ToolAttr {
    pub name: Option<LitStr>,
    pub title: Option<LitStr>,
    pub description: Option<LitStr>,
    pub read_only: Option<Flag>,
    pub destructive: Option<Flag>,
    pub idempotent: Option<Flag>,
    pub open_world: Option<Flag>,
    /// Milliseconds, and the literal for spans.
    pub timeout: Option<(u64, LitStr)>,
    pub krate: Option<CratePath>,
}

impl ToolAttr {
    /// Parses the attribute's arguments, reporting every bad key.
    pub fn parse(args: TokenStream, errors: &mut Errors) -> Self {
        let mut attr = Self::default();
        if args.is_empty() {
            return attr;
        }
        let parser = syn::meta::parser(|meta| attr.parse_key(&meta));
        if let Err(e) = syn::parse::Parser::parse2(parser, args) {
            errors.push(e);
        }
        attr
    }

    /// Parses the arguments of an attribute found on an item (`#[tool(…)]` inside `#[tools]`).
    pub fn from_attribute(attr: &syn::Attribute, errors: &mut Errors) -> Self {
        match &attr.meta {
            syn::Meta::Path(_) => Self::default(),
            syn::Meta::List(list) => Self::parse(list.tokens.clone(), errors),
            syn::Meta::NameValue(nv) => {
                errors.spanned(nv, "write `#[tool]` or `#[tool(key = value, …)]`");
                Self::default()
            }
        }
    }

    fn parse_key(&mut self, meta: &ParseNestedMeta<'_>) -> syn::Result<()> {
        let key = meta
            .path
            .get_ident()
            .map(ToString::to_string)
            .unwrap_or_default();
        match key.as_str() {
            "name" => set_once(&mut self.name, meta, &key, |m| m.value()?.parse()),
            "title" => set_once(&mut self.title, meta, &key, |m| m.value()?.parse()),
            "description" => set_once(&mut self.description, meta, &key, |m| m.value()?.parse()),
            "read_only" => set_once(&mut self.read_only, meta, &key, parse_flag),
            "destructive" => set_once(&mut self.destructive, meta, &key, parse_flag),
            "idempotent" => set_once(&mut self.idempotent, meta, &key, parse_flag),
            "open_world" => set_once(&mut self.open_world, meta, &key, parse_flag),
            "timeout" => set_once(&mut self.timeout, meta, &key, |m| {
                let lit: LitStr = m.value()?.parse()?;
                let ms = crate::util::parse_duration_ms(&lit.value())
                    .map_err(|e| syn::Error::new(lit.span(), e))?;
                Ok((ms, lit))
            }),
            "crate" => set_once(&mut self.krate, meta, &key, |m| {
                CratePath::parse_value(m.value()?)
            }),
            _ => Err(meta.error(format!(
                "unknown #[tool] key `{}`; expected one of {TOOL_KEYS}",
                path_text(&meta.path)
            ))),
        }
    }
}

/// `#[arg(…)]` on a parameter.
#[derive(Default)]
pub struct ArgAttr {
    /// `default` (None inside) or `default = expr` (Some).
    pub default: Option<(Span, Option<Expr>)>,
    pub rename: Option<LitStr>,
    pub description: Option<LitStr>,
}

impl ArgAttr {
    pub fn parse(attr: &syn::Attribute, into: &mut Self, errors: &mut Errors) {
        let result = match &attr.meta {
            syn::Meta::List(list) => list.parse_nested_meta(|meta| into.parse_key(&meta)),
            other => Err(syn::Error::new_spanned(
                other,
                format!("write `#[arg(key, …)]` with one of {ARG_KEYS}"),
            )),
        };
        if let Err(e) = result {
            errors.push(e);
        }
    }

    fn parse_key(&mut self, meta: &ParseNestedMeta<'_>) -> syn::Result<()> {
        let key = meta
            .path
            .get_ident()
            .map(ToString::to_string)
            .unwrap_or_default();
        match key.as_str() {
            "default" => set_once(&mut self.default, meta, &key, |m| {
                let span = m
                    .path
                    .get_ident()
                    .map_or_else(Span::call_site, syn::Ident::span);
                if m.input.peek(syn::Token![=]) {
                    Ok((span, Some(m.value()?.parse::<Expr>()?)))
                } else {
                    Ok((span, None))
                }
            }),
            "rename" => set_once(&mut self.rename, meta, &key, |m| m.value()?.parse()),
            "description" => set_once(&mut self.description, meta, &key, |m| m.value()?.parse()),
            _ => Err(meta.error(format!(
                "unknown #[arg] key `{}`; expected one of {ARG_KEYS}",
                path_text(&meta.path)
            ))),
        }
    }
}

fn parse_flag(meta: &ParseNestedMeta<'_>) -> syn::Result<Flag> {
    if meta.input.peek(syn::Token![=]) {
        let lit: LitBool = meta.value()?.parse()?;
        Ok(Flag { value: lit.value })
    } else {
        Ok(Flag { value: true })
    }
}
