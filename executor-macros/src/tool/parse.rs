//! Syntax of `#[tool(…)]`, `#[arg(…)]`, `#[tools(…)]` and `toolset![…]`. Syntax only; every key
//! keeps its span, and every bad key is reported (the keys after it are still read).

use proc_macro2::{Span, TokenStream};
use syn::meta::ParseNestedMeta;
use syn::parse::{Parse, ParseStream};
use syn::punctuated::Punctuated;
use syn::{Expr, LitStr, Path, Token};

use crate::attr::{self, Flag, Keys, set_once};
use crate::diag::Errors;
use crate::krate::CratePath;

const TOOL: Keys = Keys {
    what: "#[tool]",
    keys: &[
        "name",
        "title",
        "description",
        "read_only",
        "destructive",
        "idempotent",
        "open_world",
        "timeout",
        "tags",
        "scopes",
        "icon",
        "task",
        "ttl",
        "poll",
        "crate",
    ],
};
const ARG: Keys = Keys {
    what: "#[arg]",
    keys: &["default", "rename", "description"],
};
const TOOLS: Keys = Keys {
    what: "#[tools]",
    keys: &["crate"],
};

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
    /// `tags = ["admin", …]`: the literals, in order.
    pub tags: Option<Vec<LitStr>>,
    /// The OAuth scopes a caller needs, space-separated in the literal.
    pub scopes: Option<Vec<String>>,
    /// `icon = "https://…"`: an icon's address.
    pub icon: Option<LitStr>,
    /// `task = "optional" | "required"`: whether calls must be tasks, and the literal.
    pub task: Option<(bool, LitStr)>,
    /// A task's TTL in milliseconds, and the literal.
    pub ttl: Option<(u64, LitStr)>,
    /// A task's poll interval in milliseconds, and the literal.
    pub poll: Option<(u64, LitStr)>,
    /// The path, and the `crate` key's span.
    pub krate: Option<(CratePath, Span)>,
}

impl ToolAttr {
    /// Parses the attribute's arguments, reporting every bad key.
    pub fn parse(args: TokenStream, errors: &mut Errors) -> Self {
        let mut attr = Self::default();
        attr::parse_args(args, errors, |meta, _| attr.parse_key(meta));
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
        match attr::key_of(meta).as_str() {
            "name" => set_once(&mut self.name, meta, |m| attr::string(m, "get_weather")),
            "title" => set_once(&mut self.title, meta, |m| attr::string(m, "Get weather")),
            "description" => set_once(&mut self.description, meta, |m| {
                attr::string(m, "Looks up the weather.")
            }),
            "read_only" => set_once(&mut self.read_only, meta, attr::flag),
            "destructive" => set_once(&mut self.destructive, meta, attr::flag),
            "idempotent" => set_once(&mut self.idempotent, meta, attr::flag),
            "open_world" => set_once(&mut self.open_world, meta, attr::flag),
            "timeout" => set_once(&mut self.timeout, meta, |m| {
                attr::duration(
                    m,
                    "5s",
                    "would fail every call; write a limit such as `\"5s\"`",
                )
            }),
            "tags" => set_once(&mut self.tags, meta, tags),
            "scopes" => set_once(&mut self.scopes, meta, scopes),
            "icon" => set_once(&mut self.icon, meta, |m| {
                attr::string(m, "https://example.com/icon.png")
            }),
            "task" => set_once(&mut self.task, meta, task),
            "ttl" => set_once(&mut self.ttl, meta, |m| {
                attr::duration(
                    m,
                    "10m",
                    "would end every task at once; write a lifetime such as `\"10m\"`",
                )
            }),
            "poll" => set_once(&mut self.poll, meta, |m| {
                attr::duration(
                    m,
                    "2s",
                    "would have clients poll without pause; write an interval such as `\"2s\"`",
                )
            }),
            "crate" => set_once(&mut self.krate, meta, |m| {
                Ok((CratePath::parse_value(m.value()?)?, attr::key_span(m)))
            }),
            _ => Err(TOOL.error(meta)),
        }
    }
}

/// `tags = ["admin", "files"]`: a list of non-empty, distinct string literals, each error on
/// the element that is wrong.
fn tags(meta: &ParseNestedMeta<'_>) -> syn::Result<Vec<LitStr>> {
    const WRITE: &str = "write `tags = [\"admin\", \"files\"]`";
    if !meta.input.peek(Token![=]) {
        return Err(meta.error(format!("`tags` takes a list of strings: {WRITE}")));
    }
    let value: Expr = meta.value()?.parse()?;
    let Expr::Array(array) = strip_group(&value) else {
        return Err(syn::Error::new_spanned(
            value,
            format!("expected a list of strings: {WRITE}"),
        ));
    };
    let mut tags: Vec<LitStr> = Vec::with_capacity(array.elems.len());
    for elem in &array.elems {
        let syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(tag),
            ..
        }) = strip_group(elem)
        else {
            return Err(syn::Error::new_spanned(
                elem,
                format!("a tag is a string literal: {WRITE}"),
            ));
        };
        if tag.value().trim().is_empty() {
            return Err(syn::Error::new_spanned(
                tag,
                "a tag cannot be empty; write a word such as `\"admin\"`",
            ));
        }
        if tags.iter().any(|known| known.value() == tag.value()) {
            return Err(syn::Error::new_spanned(
                tag,
                format!("duplicate tag \"{}\"; list each tag once", tag.value()),
            ));
        }
        tags.push(tag.clone());
    }
    Ok(tags)
}

/// The expression inside the invisible group a `macro_rules!` `$x:expr` makes.
fn strip_group(expr: &Expr) -> &Expr {
    match expr {
        Expr::Group(group) => strip_group(&group.expr),
        other => other,
    }
}

/// `scopes = "notes:read notes:write"`: OAuth scope tokens (RFC 6749 §3.3: printable ASCII
/// except `"` and `\\`), separated by spaces, at least one.
fn scopes(meta: &ParseNestedMeta<'_>) -> syn::Result<Vec<String>> {
    let lit = attr::string(meta, "notes:read notes:write")?;
    let value = lit.value();
    let scopes: Vec<String> = value
        .split(' ')
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
        .collect();
    if scopes.is_empty() {
        return Err(syn::Error::new_spanned(
            &lit,
            "`scopes` needs at least one scope: `scopes = \"notes:write\"`, or remove the key",
        ));
    }
    if let Some(bad) = scopes.iter().find(|s| {
        !s.bytes()
            .all(|b| b == 0x21 || (0x23..=0x5B).contains(&b) || (0x5D..=0x7E).contains(&b))
    }) {
        return Err(syn::Error::new_spanned(
            &lit,
            format!(
                "`{bad}` is not an OAuth scope token (printable ASCII without `\"` or `\\`); \
                 separate scopes with spaces: `scopes = \"notes:read notes:write\"`"
            ),
        ));
    }
    Ok(scopes)
}

/// `task = "optional"` (false) or `task = "required"` (true).
fn task(meta: &ParseNestedMeta<'_>) -> syn::Result<(bool, LitStr)> {
    let lit = attr::string(meta, "optional")?;
    match lit.value().as_str() {
        "optional" => Ok((false, lit)),
        "required" => Ok((true, lit)),
        "forbidden" => Err(syn::Error::new_spanned(
            &lit,
            "a tool is never a task unless it says so; remove `task = \"forbidden\"`",
        )),
        other => Err(syn::Error::new_spanned(
            &lit,
            format!(
                "unknown task mode \"{other}\"; write `task = \"optional\"` (a task when the client asks for one) or `task = \"required\"` (always a task)"
            ),
        )),
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
        match &attr.meta {
            syn::Meta::List(list) => {
                attr::parse_args(list.tokens.clone(), errors, |meta, _| into.parse_key(meta));
            }
            other => errors.spanned(
                other,
                format!("write `#[arg(key, …)]` with one of {}", ARG.list()),
            ),
        }
    }

    fn parse_key(&mut self, meta: &ParseNestedMeta<'_>) -> syn::Result<()> {
        match attr::key_of(meta).as_str() {
            "default" => set_once(&mut self.default, meta, |m| {
                let span = attr::key_span(m);
                if m.input.peek(Token![=]) {
                    Ok((span, Some(m.value()?.parse::<Expr>()?)))
                } else {
                    Ok((span, None))
                }
            }),
            "rename" => set_once(&mut self.rename, meta, |m| attr::string(m, "city")),
            "description" => set_once(&mut self.description, meta, |m| {
                attr::string(m, "City name, e.g. Paris.")
            }),
            _ => Err(ARG.error(meta)),
        }
    }
}

/// `#[tools(…)]`: only `crate = …`.
pub fn tools_args(args: TokenStream, errors: &mut Errors) -> CratePath {
    let mut krate = None;
    attr::parse_args(args, errors, |meta, _| {
        if meta.path.is_ident("crate") {
            set_once(&mut krate, meta, |m| CratePath::parse_value(m.value()?))
        } else {
            Err(TOOLS.error(meta))
        }
    });
    krate.unwrap_or_default()
}

/// `toolset![[crate = path;] a, b, path::c]`.
pub struct ToolsetInput {
    pub krate: CratePath,
    pub tools: Punctuated<Path, Token![,]>,
}

/// The `crate = …` of `toolset!`, for its fallback when the rest does not parse (the
/// default when the prefix itself does not).
pub fn toolset_crate_lenient(input: TokenStream) -> CratePath {
    let prefix = |input: ParseStream<'_>| {
        let krate = CratePath::parse_prefix(input)?;
        input.parse::<TokenStream>()?;
        Ok(krate)
    };
    syn::parse::Parser::parse2(prefix, input).unwrap_or_default()
}

impl Parse for ToolsetInput {
    fn parse(input: ParseStream<'_>) -> syn::Result<Self> {
        let krate = CratePath::parse_prefix(input)?;
        let tools = Punctuated::parse_terminated(input)?;
        Ok(Self { krate, tools })
    }
}
