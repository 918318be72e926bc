//! Syntax of `agent_executor!(…)` and `#[agent(…)]`. Syntax only: every key keeps its span,
//! and every bad key is reported (the keys after it are still read).

use proc_macro2::{Span, TokenStream};
use syn::meta::ParseNestedMeta;
use syn::parse::{Parse, ParseStream};
use syn::punctuated::Punctuated;
use syn::{Expr, Generics, Ident, LitStr, Token, Type, WhereClause};

use crate::attr::{self, Flag, Keys, set_once};
use crate::diag::Errors;
use crate::krate::CratePath;

/// `agent_executor!([crate = path;] [impl<…>] Type [where …], <arms>)`.
pub struct ExecutorInput {
    pub head: ExecutorHead,
    pub arms: Arms,
}

/// `[crate = path;] [impl<…>] Type [where …]`: what the fallback impl needs.
pub struct ExecutorHead {
    pub krate: CratePath,
    pub generics: Generics,
    pub self_ty: Type,
}

/// The seed's short form (one closure, the `execute` arm) or named arms.
pub enum Arms {
    Short(Expr),
    Named(Vec<(Ident, Expr)>),
}

impl ExecutorHead {
    fn parse(input: ParseStream<'_>) -> syn::Result<Self> {
        let krate = CratePath::parse_prefix(input)?;
        let mut generics = Generics::default();
        if input.peek(Token![impl]) {
            input.parse::<Token![impl]>()?;
            generics = input.parse()?;
        }
        let self_ty: Type = input.parse()?;
        if input.peek(Token![where]) {
            // Parsed by hand: syn's `WhereClause` would take the arms for predicates.
            generics.where_clause = Some(parse_where(input)?);
        }
        Ok(Self {
            krate,
            generics,
            self_ty,
        })
    }

    /// The head of `agent_executor!`'s input, whatever follows it, for the fallback impl when
    /// the input does not parse.
    pub fn parse_lenient(input: TokenStream) -> Option<Self> {
        let head = |input: ParseStream<'_>| {
            let head = Self::parse(input)?;
            input.parse::<TokenStream>()?;
            Ok(head)
        };
        syn::parse::Parser::parse2(head, input).ok()
    }
}

impl Parse for ExecutorInput {
    fn parse(input: ParseStream<'_>) -> syn::Result<Self> {
        let head = ExecutorHead::parse(input)?;
        // A where clause ends with its comma; without one, a comma ends the type.
        if head.generics.where_clause.is_none() {
            if input.is_empty() {
                return Err(syn::Error::new(
                    Span::call_site(),
                    "agent_executor! needs a body after the type: write `agent_executor!(MyAgent, |ctx, queue| async { … })`",
                ));
            }
            input.parse::<Token![,]>()?;
        }
        let arms = if input.peek(Ident) && input.peek2(Token![:]) && !input.peek2(Token![::]) {
            let mut arms = Vec::new();
            while !input.is_empty() {
                let name: Ident = input.parse()?;
                input.parse::<Token![:]>()?;
                arms.push((name, input.parse()?));
                if input.is_empty() {
                    break;
                }
                input.parse::<Token![,]>()?;
            }
            Arms::Named(arms)
        } else {
            let body: Expr = input.parse()?;
            if input.peek(Token![,]) {
                input.parse::<Token![,]>()?;
            }
            if !input.is_empty() {
                return Err(input.error(
                    "unexpected tokens after the closure; to add `cancel` or `on_shutdown`, name every arm: \
                     `execute: |ctx, queue| async { … }, cancel: |ctx, queue| async { … }`",
                ));
            }
            Arms::Short(body)
        };
        Ok(Self { head, arms })
    }
}

/// `where P1, P2,` up to the first arm or closure; each predicate ends with a comma.
fn parse_where(input: ParseStream<'_>) -> syn::Result<WhereClause> {
    let where_token: Token![where] = input.parse()?;
    let mut predicates = Punctuated::new();
    while !input.is_empty()
        && !starts_closure(input)
        && !starts_arm(input)
        && !starts_named_arm(input)
    {
        predicates.push_value(input.parse::<syn::WherePredicate>()?);
        predicates.push_punct(input.parse::<Token![,]>()?);
    }
    Ok(WhereClause {
        where_token,
        predicates,
    })
}

fn starts_closure(input: ParseStream<'_>) -> bool {
    input.peek(Token![|])
        || input.peek(Token![||])
        || input.peek(Token![move])
        || input.peek(Token![async])
}

/// `execute:`, `cancel:` or `on_shutdown:`: an arm even when its value is not a closure.
fn starts_named_arm(input: ParseStream<'_>) -> bool {
    let fork = input.fork();
    fork.parse::<Ident>()
        .is_ok_and(|name| name == "execute" || name == "cancel" || name == "on_shutdown")
        && fork.peek(Token![:])
        && !fork.peek(Token![::])
}

/// `name: |…|`, `name: move …` or `name: async …`: an arm, not a `T: Bound` predicate.
fn starts_arm(input: ParseStream<'_>) -> bool {
    let fork = input.fork();
    fork.parse::<Ident>().is_ok()
        && fork.parse::<Token![:]>().is_ok()
        && !fork.peek(Token![:])
        && starts_closure(&fork)
}

const AGENT: Keys = Keys {
    what: "#[agent]",
    keys: &[
        "name",
        "description",
        "version",
        "provider",
        "documentation_url",
        "icon_url",
        "streaming",
        "push_notifications",
        "input_modes",
        "output_modes",
        "skill",
        "crate",
    ],
};
const SKILL: Keys = Keys {
    what: "skill",
    keys: &[
        "id",
        "name",
        "description",
        "tags",
        "examples",
        "input_modes",
        "output_modes",
    ],
};
const PROVIDER: Keys = Keys {
    what: "provider",
    keys: &["organization", "url"],
};

/// `#[agent(…)]`.
#[derive(Default)]
pub struct AgentAttr {
    pub name: Option<LitStr>,
    pub description: Option<LitStr>,
    pub version: Option<LitStr>,
    /// `provider(organization = "…", url = "…")`: the organization and the url.
    pub provider: Option<(LitStr, LitStr)>,
    pub documentation_url: Option<LitStr>,
    pub icon_url: Option<LitStr>,
    pub streaming: Option<Flag>,
    pub push_notifications: Option<Flag>,
    pub input_modes: Option<StrList>,
    pub output_modes: Option<StrList>,
    pub skills: Vec<SkillAttr>,
    pub krate: Option<CratePath>,
}

/// `skill(…)` inside `#[agent(…)]`.
pub struct SkillAttr {
    /// The `skill` key, for errors about the whole skill.
    pub span: Span,
    pub id: Option<LitStr>,
    pub name: Option<LitStr>,
    pub description: Option<LitStr>,
    pub tags: Option<StrList>,
    pub examples: Option<StrList>,
    pub input_modes: Option<StrList>,
    pub output_modes: Option<StrList>,
}

/// `["a", "b"]`, with the brackets' span.
pub struct StrList {
    pub span: Span,
    pub items: Vec<LitStr>,
}

impl AgentAttr {
    /// Parses the attribute's arguments, reporting every bad key.
    pub fn parse(args: TokenStream, errors: &mut Errors) -> Self {
        let mut attr = Self::default();
        attr::parse_args(args, errors, |meta, errors| attr.parse_key(meta, errors));
        attr
    }

    fn parse_key(&mut self, meta: &ParseNestedMeta<'_>, errors: &mut Errors) -> syn::Result<()> {
        let text = |m: &ParseNestedMeta<'_>| attr::string(m, "…");
        let list = |m: &ParseNestedMeta<'_>| parse_list(m.value()?);
        match attr::key_of(meta).as_str() {
            "name" => set_once(&mut self.name, meta, text),
            "description" => set_once(&mut self.description, meta, text),
            "version" => set_once(&mut self.version, meta, |m| attr::string(m, "1.0.0")),
            "documentation_url" => set_once(&mut self.documentation_url, meta, text),
            "icon_url" => set_once(&mut self.icon_url, meta, text),
            "streaming" => set_once(&mut self.streaming, meta, attr::flag),
            "push_notifications" => set_once(&mut self.push_notifications, meta, attr::flag),
            "input_modes" => set_once(&mut self.input_modes, meta, list),
            "output_modes" => set_once(&mut self.output_modes, meta, list),
            "provider" => set_once(&mut self.provider, meta, |m| parse_provider(m, errors)),
            "skill" => {
                self.skills.push(SkillAttr::parse(meta, errors)?);
                Ok(())
            }
            "crate" => set_once(&mut self.krate, meta, |m| {
                CratePath::parse_value(m.value()?)
            }),
            _ => Err(AGENT.error(meta)),
        }
    }
}

impl SkillAttr {
    fn parse(meta: &ParseNestedMeta<'_>, errors: &mut Errors) -> syn::Result<Self> {
        let mut skill = Self {
            span: attr::key_span(meta),
            id: None,
            name: None,
            description: None,
            tags: None,
            examples: None,
            input_modes: None,
            output_modes: None,
        };
        if !meta.input.peek(syn::token::Paren) {
            return Err(
                meta.error("write the skill as `skill(id = \"…\", name = \"…\", description = \"…\", tags = [\"…\"])`")
            );
        }
        let text = |m: &ParseNestedMeta<'_>| attr::string(m, "…");
        let list = |m: &ParseNestedMeta<'_>| parse_list(m.value()?);
        attr::parse_nested(meta, errors, |inner, _| {
            match attr::key_of(inner).as_str() {
                "id" => set_once(&mut skill.id, inner, |m| attr::string(m, "forecast")),
                "name" => set_once(&mut skill.name, inner, text),
                "description" => set_once(&mut skill.description, inner, text),
                "tags" => set_once(&mut skill.tags, inner, list),
                "examples" => set_once(&mut skill.examples, inner, list),
                "input_modes" => set_once(&mut skill.input_modes, inner, list),
                "output_modes" => set_once(&mut skill.output_modes, inner, list),
                _ => Err(SKILL.error(inner)),
            }
        })?;
        Ok(skill)
    }
}

/// `provider(organization = "…", url = "…")`: both keys.
fn parse_provider(
    meta: &ParseNestedMeta<'_>,
    errors: &mut Errors,
) -> syn::Result<(LitStr, LitStr)> {
    let span = attr::key_span(meta);
    let (mut organization, mut url) = (None, None);
    attr::parse_nested(meta, errors, |inner, _| {
        match attr::key_of(inner).as_str() {
            "organization" => set_once(&mut organization, inner, |m| attr::string(m, "…")),
            "url" => set_once(&mut url, inner, |m| attr::string(m, "https://…")),
            _ => Err(PROVIDER.error(inner)),
        }
    })?;
    match (organization, url) {
        (Some(organization), Some(url)) => Ok((organization, url)),
        _ => Err(syn::Error::new(
            span,
            "write the provider as `provider(organization = \"…\", url = \"…\")`",
        )),
    }
}

fn parse_list(input: ParseStream<'_>) -> syn::Result<StrList> {
    let content;
    let bracket = syn::bracketed!(content in input);
    let items = Punctuated::<LitStr, Token![,]>::parse_terminated(&content)?;
    Ok(StrList {
        span: bracket.span.join(),
        items: items.into_iter().collect(),
    })
}
