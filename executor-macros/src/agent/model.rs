//! The checked model both agent macros expand from: which hooks the agent has and where their
//! bodies come from, and (for `#[agent]`) its card.

use proc_macro2::Span;
use quote::ToTokens;
use syn::spanned::Spanned;
use syn::{Block, Expr, Generics, Ident, ImplItem, ImplItemFn, ItemImpl, LitStr, Pat, Type};

use super::parse::{AgentAttr, Arms, ExecutorInput, SkillAttr, StrList};
use crate::diag::Errors;
use crate::krate::CratePath;

/// An `AgentExecutor` impl to generate.
pub struct ImplModel<'a> {
    pub krate: CratePath,
    pub generics: &'a Generics,
    pub self_ty: &'a Type,
    pub execute: Hook<'a>,
    pub cancel: Option<Hook<'a>>,
    pub on_shutdown: Option<Hook<'a>>,
}

/// Where a hook's body comes from.
pub enum Hook<'a> {
    /// A closure of `agent_executor!`: its parameter patterns (none for `on_shutdown`) and its
    /// `async` block, with the `async` token's span.
    Closure {
        params: Vec<&'a Pat>,
        block: &'a Block,
        span: Span,
    },
    /// A method of an `#[agent]` impl block, called by name.
    Method(&'a ImplItemFn),
}

const ARMS: &str = "`execute`, `cancel` or `on_shutdown`";

impl<'a> ImplModel<'a> {
    /// Checks the arms of `agent_executor!`, reporting every bad one.
    pub fn from_input(input: &'a ExecutorInput, errors: &mut Errors) -> Option<Self> {
        let mut execute = None;
        let mut cancel = None;
        let mut on_shutdown = None;
        match &input.arms {
            Arms::Short(expr) => execute = closure_hook("execute", expr, 2, errors),
            Arms::Named(arms) => {
                let mut seen: Vec<&Ident> = Vec::new();
                for (name, expr) in arms {
                    let (slot, arity) = match name.to_string().as_str() {
                        "execute" => (&mut execute, 2),
                        "cancel" => (&mut cancel, 2),
                        "on_shutdown" => (&mut on_shutdown, 0),
                        other => {
                            errors.spanned(name, format!("unknown arm `{other}`; expected {ARMS}"));
                            continue;
                        }
                    };
                    if seen.contains(&name) {
                        errors.spanned(name, format!("duplicate `{name}` arm; write it once"));
                        continue;
                    }
                    seen.push(name);
                    *slot = closure_hook(&name.to_string(), expr, arity, errors);
                }
                if !seen.iter().any(|s| *s == "execute") {
                    errors.spanned(
                        &input.self_ty,
                        "agent_executor! needs an `execute` arm: write `execute: |ctx, queue| async { … }`",
                    );
                }
            }
        }
        Some(Self {
            krate: input.krate.clone(),
            generics: &input.generics,
            self_ty: &input.self_ty,
            execute: execute?,
            cancel,
            on_shutdown,
        })
    }
}

/// `|ctx, queue| async [move] { … }` (or `async |ctx, queue| { … }`) with `arity` parameters.
fn closure_hook<'a>(
    arm: &str,
    expr: &'a Expr,
    arity: usize,
    errors: &mut Errors,
) -> Option<Hook<'a>> {
    let example = if arity == 0 {
        "|| async { … }"
    } else {
        "|ctx, queue| async { … }"
    };
    let Expr::Closure(closure) = expr else {
        errors.spanned(
            expr,
            format!("expected a closure for `{arm}`; write `{arm}: {example}`"),
        );
        return None;
    };
    let mut ok = true;
    if closure.inputs.len() != arity {
        let what = if arity == 0 {
            "no parameters".to_owned()
        } else {
            format!("{arity} parameters")
        };
        let found = closure.inputs.len();
        let mut bars = closure.inputs_begin.to_token_stream();
        closure.inputs.to_tokens(&mut bars);
        closure.inputs_end.to_tokens(&mut bars);
        errors.spanned(
            bars,
            format!("`{arm}` takes {what}, found {found}; write `{example}`"),
        );
        ok = false;
    }
    for input in &closure.inputs {
        if let Pat::Type(typed) = input {
            errors.spanned(
                &typed.ty,
                format!("remove the parameter's type; `{arm}` knows its parameters' types: write `{example}`"),
            );
            ok = false;
        }
    }
    if let syn::ReturnType::Type(arrow, ty) = &closure.output {
        errors.spanned(
            quote::quote!(#arrow #ty),
            format!(
                "remove the closure's return type; `{arm}` returns what its `async` block does"
            ),
        );
        ok = false;
    }
    let (block, span) = match (&closure.asyncness, &*closure.body) {
        (None, Expr::Async(block)) => (&block.block, block.async_token.span),
        (Some(token), Expr::Block(block)) => (&block.block, token.span),
        _ => {
            errors.spanned(
                &closure.body,
                format!("the body of `{arm}` must be an `async` block; write `{example}`"),
            );
            return None;
        }
    };
    ok.then(|| Hook::Closure {
        params: closure.inputs.iter().collect(),
        block,
        span,
    })
}

/// An `#[agent]` impl block: the hooks and the card.
pub struct AgentModel<'a> {
    pub imp: ImplModel<'a>,
    pub card: Card,
}

/// The card's constants.
pub struct Card {
    pub name: String,
    pub description: String,
    /// `None`: the crate's `CARGO_PKG_VERSION`.
    pub version: Option<LitStr>,
    pub provider: Option<(LitStr, LitStr)>,
    pub documentation_url: Option<LitStr>,
    pub icon_url: Option<LitStr>,
    pub streaming: bool,
    pub push_notifications: bool,
    pub input_modes: Vec<String>,
    pub output_modes: Vec<String>,
    pub skills: Vec<Skill>,
}

pub struct Skill {
    pub id: String,
    pub name: String,
    pub description: String,
    pub tags: Vec<String>,
    pub examples: Vec<String>,
    pub input_modes: Option<Vec<String>>,
    pub output_modes: Option<Vec<String>>,
}

const EXECUTE_SIG: &str =
    "async fn execute(&self, ctx: &RequestContext, queue: &dyn EventQueueWriter) -> A2aResult<()>";
const CANCEL_SIG: &str =
    "async fn cancel(&self, ctx: &RequestContext, queue: &dyn EventQueueWriter) -> A2aResult<()>";
const SHUTDOWN_SIG: &str = "async fn on_shutdown(&self)";

impl<'a> AgentModel<'a> {
    pub fn from_syn(attr: AgentAttr, block: &'a ItemImpl, errors: &mut Errors) -> Option<Self> {
        if let Some((path, _)) = &block.trait_ {
            errors.spanned(
                path,
                "#[agent] goes on an inherent `impl Type` block, not a trait impl",
            );
        }
        let mut hooks: [Option<&ImplItemFn>; 3] = [None, None, None];
        for item in &block.items {
            let ImplItem::Fn(method) = item else { continue };
            let (slot, signature, args) = match method.sig.ident.to_string().as_str() {
                "execute" => (0, EXECUTE_SIG, 2),
                "cancel" => (1, CANCEL_SIG, 2),
                "on_shutdown" => (2, SHUTDOWN_SIG, 0),
                _ => continue,
            };
            if check_signature(method, signature, args, errors) {
                hooks[slot] = Some(method);
            } else {
                // Reported; a stand-in keeps the other checks going.
                hooks[slot] = hooks[slot].or(Some(method));
            }
        }
        if hooks[0].is_none() && block.trait_.is_none() {
            errors.spanned(
                &block.self_ty,
                format!("#[agent] needs an `execute` method in this impl block: write `{EXECUTE_SIG} {{ … }}`"),
            );
        }
        let card = Card::from_attr(&attr, block, errors);
        Some(Self {
            imp: ImplModel {
                krate: attr.krate.unwrap_or_default(),
                generics: &block.generics,
                self_ty: &block.self_ty,
                execute: Hook::Method(hooks[0]?),
                cancel: hooks[1].map(Hook::Method),
                on_shutdown: hooks[2].map(Hook::Method),
            },
            card,
        })
    }
}

/// `async fn name(&self, <args> typed parameters)` with no generics; true when it is.
fn check_signature(method: &ImplItemFn, signature: &str, args: usize, errors: &mut Errors) -> bool {
    let sig = &method.sig;
    let name = &sig.ident;
    let mut ok = true;
    if let Err(e) = method.modifiers.require_empty() {
        errors.push(e);
        ok = false;
    }
    let mut wrong = |tokens: &dyn ToTokens, what: &str| {
        errors.spanned(
            tokens.to_token_stream(),
            format!("{what}; write `{signature}`"),
        );
        ok = false;
    };
    if sig.asyncness.is_none() {
        wrong(&sig.fn_token, &format!("`{name}` must be an `async fn`"));
    }
    if !sig.generics.params.is_empty() || sig.generics.where_clause.is_some() {
        wrong(&sig.generics, &format!("`{name}` cannot be generic"));
    }
    match sig.receiver() {
        Some(receiver) if is_shared_ref(receiver) => {}
        Some(receiver) => wrong(receiver, &format!("`{name}` takes `&self`")),
        None => wrong(name, &format!("`{name}` takes `&self`")),
    }
    let typed = sig
        .inputs
        .iter()
        .filter(|a| matches!(a, syn::FnArg::Typed(_)))
        .count();
    if typed != args {
        let what = if args == 0 {
            "no parameters besides `&self`".to_owned()
        } else {
            format!("{args} parameters besides `&self`")
        };
        wrong(
            &sig.inputs,
            &format!("`{name}` takes {what}, found {typed}"),
        );
    }
    ok
}

fn is_shared_ref(receiver: &syn::Receiver) -> bool {
    matches!(&receiver.kind, syn::ReceiverKind::Reference(_, _, None))
}

impl Card {
    fn from_attr(attr: &AgentAttr, block: &ItemImpl, errors: &mut Errors) -> Self {
        let docs = crate::util::join_doc(&crate::util::doc_lines(&block.attrs));
        let description = attr.description.as_ref().map_or(docs, LitStr::value);
        if description.is_empty() {
            errors.at(
                Span::call_site(),
                "#[agent] needs a description: write a `///` doc comment on the impl block or `description = \"…\"`",
            );
        }
        let name = match (&attr.name, type_name(&block.self_ty)) {
            (Some(lit), _) => lit.value(),
            (None, Some(name)) => name,
            (None, None) => {
                errors.spanned(
                    &block.self_ty,
                    "#[agent] cannot name this type's agent; write `name = \"…\"`",
                );
                String::new()
            }
        };
        let provider = match &attr.provider {
            Some((_, Some(org), Some(url))) => Some((org.clone(), url.clone())),
            Some((span, _, _)) => {
                errors.at(
                    *span,
                    "write the provider as `provider(organization = \"…\", url = \"…\")`",
                );
                None
            }
            None => None,
        };
        if attr.skills.is_empty() {
            errors.at(
                Span::call_site(),
                "#[agent] needs at least one skill, as A2A 1.0 cards list what the agent can do: \
                 write `skill(id = \"…\", description = \"…\", tags = [\"…\"])`",
            );
        }
        let skills = check_skills(&attr.skills, &description, errors);
        Self {
            name,
            description,
            version: attr.version.clone(),
            provider,
            documentation_url: attr.documentation_url.clone(),
            icon_url: attr.icon_url.clone(),
            streaming: attr.streaming.is_some_and(|f| f.value),
            push_notifications: attr.push_notifications.is_some_and(|f| f.value),
            input_modes: modes(attr.input_modes.as_ref(), "input_modes", errors),
            output_modes: modes(attr.output_modes.as_ref(), "output_modes", errors),
            skills,
        }
    }
}

/// Every skill has an id, unique in the card, and at least one tag; the name defaults to the
/// id and the description to the agent's.
fn check_skills(skills: &[SkillAttr], agent_description: &str, errors: &mut Errors) -> Vec<Skill> {
    let mut out: Vec<Skill> = Vec::new();
    for skill in skills {
        let Some(id) = &skill.id else {
            errors.at(
                skill.span,
                "a skill needs an id: write `skill(id = \"…\", …)`",
            );
            continue;
        };
        if id.value().is_empty() {
            errors.spanned(id, "a skill id cannot be empty");
            continue;
        }
        if out.iter().any(|s| s.id == id.value()) {
            errors.spanned(
                id,
                format!(
                    "duplicate skill id `{}`; give each skill its own id",
                    id.value()
                ),
            );
            continue;
        }
        let tags = match &skill.tags {
            Some(list) if list.items.is_empty() => {
                errors.at(
                    list.span,
                    "a skill needs at least one tag: write `tags = [\"…\"]`",
                );
                Vec::new()
            }
            Some(list) => values(list),
            None => vec![id.value()],
        };
        out.push(Skill {
            id: id.value(),
            name: skill
                .name
                .as_ref()
                .map_or_else(|| id.value(), LitStr::value),
            description: skill
                .description
                .as_ref()
                .map_or_else(|| agent_description.to_owned(), LitStr::value),
            tags,
            examples: skill.examples.as_ref().map(values).unwrap_or_default(),
            input_modes: skill.input_modes.as_ref().map(values),
            output_modes: skill.output_modes.as_ref().map(values),
        });
    }
    out
}

fn modes(list: Option<&StrList>, key: &str, errors: &mut Errors) -> Vec<String> {
    match list {
        None => vec!["text/plain".to_owned()],
        Some(list) if list.items.is_empty() => {
            errors.at(
                list.span,
                format!("`{key}` needs at least one media type, e.g. `[\"text/plain\"]`"),
            );
            Vec::new()
        }
        Some(list) => values(list),
    }
}

fn values(list: &StrList) -> Vec<String> {
    list.items.iter().map(LitStr::value).collect()
}

fn type_name(ty: &Type) -> Option<String> {
    match ty {
        Type::Path(path) => path.path.segments.last().map(|s| s.ident.to_string()),
        _ => None,
    }
}

/// The span to blame for a hook's generated call: the user's method signature.
pub fn method_span(method: &ImplItemFn) -> Span {
    method.sig.span()
}
