//! The model both agent macros expand from, read from the parse result: which hooks the agent
//! has and where their bodies come from, and (for `#[agent]`) its card. Each node is read on
//! its own; the rules run after, in `check.rs`.

use proc_macro2::Span;
use syn::{Block, Expr, Generics, ImplItem, ImplItemFn, ItemImpl, LitStr, Pat, Type};

use super::parse::{AgentAttr, Arms, ExecutorHead, ExecutorInput, StrList};
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

/// The hooks of an agent, and how many parameters each takes besides `&self`.
pub const HOOKS: [(&str, usize); 3] = [("execute", 2), ("cancel", 2), ("on_shutdown", 0)];

/// The number of parameters of hook `name`, `None` for a name that is not a hook.
pub fn hook_arity(name: &str) -> Option<usize> {
    HOOKS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, arity)| *arity)
}

/// How a hook's closure is written, for messages.
pub fn closure_example(arity: usize) -> &'static str {
    if arity == 0 {
        "|| async { … }"
    } else {
        "|ctx, queue| async { … }"
    }
}

const ARMS: &str = "`execute`, `cancel` or `on_shutdown`";

impl<'a> ImplModel<'a> {
    /// Reads the arms of `agent_executor!`: the first arm of each hook (a second one is
    /// `check_unique_arms`'s), reporting every arm that is not a hook's closure. An error when
    /// there is no `execute` hook to implement.
    pub fn from_input(input: &'a ExecutorInput, errors: &mut Errors) -> syn::Result<Self> {
        let mut hooks: [Option<syn::Result<Hook<'a>>>; 3] = [None, None, None];
        match &input.arms {
            Arms::Short(expr) => hooks[0] = Some(closure_hook("execute", expr)),
            Arms::Named(arms) => {
                for (name, expr) in arms {
                    let text = name.to_string();
                    let Some(slot) = HOOKS.iter().position(|(n, _)| *n == text) else {
                        errors.spanned(name, format!("unknown arm `{text}`; expected {ARMS}"));
                        continue;
                    };
                    if hooks[slot].is_none() {
                        hooks[slot] = Some(closure_hook(&text, expr));
                    }
                }
            }
        }
        let [execute, cancel, on_shutdown] = hooks;
        let cancel = errors.report(cancel.transpose()).flatten();
        let on_shutdown = errors.report(on_shutdown.transpose()).flatten();
        let head = &input.head;
        let execute = execute.unwrap_or_else(|| {
            Err(syn::Error::new_spanned(
                &head.self_ty,
                "agent_executor! needs an `execute` arm: write `execute: |ctx, queue| async { … }`",
            ))
        })?;
        Ok(Self::new(head, execute, cancel, on_shutdown))
    }

    fn new(
        head: &'a ExecutorHead,
        execute: Hook<'a>,
        cancel: Option<Hook<'a>>,
        on_shutdown: Option<Hook<'a>>,
    ) -> Self {
        Self {
            krate: head.krate.clone(),
            generics: &head.generics,
            self_ty: &head.self_ty,
            execute,
            cancel,
            on_shutdown,
        }
    }
}

/// `|ctx, queue| async [move] { … }` (or `async |ctx, queue| { … }`): its parameters and its
/// `async` block. Its parameters' count and types, and its return type, are `check.rs`'s.
fn closure_hook<'a>(arm: &str, expr: &'a Expr) -> syn::Result<Hook<'a>> {
    let example = closure_example(hook_arity(arm).unwrap_or(2));
    let Expr::Closure(closure) = expr else {
        return Err(syn::Error::new_spanned(
            expr,
            format!("expected a closure for `{arm}`; write `{arm}: {example}`"),
        ));
    };
    let (block, span) = match (&closure.asyncness, &*closure.body) {
        (None, Expr::Async(block)) => (&block.block, block.async_token.span),
        (Some(token), Expr::Block(block)) => (&block.block, token.span),
        _ => {
            return Err(syn::Error::new_spanned(
                &closure.body,
                format!("the body of `{arm}` must be an `async` block; write `{example}`"),
            ));
        }
    };
    Ok(Hook::Closure {
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

/// The signature hook `name` is written with, for messages.
pub fn hook_signature(name: &str) -> &'static str {
    match name {
        "execute" => EXECUTE_SIG,
        "cancel" => CANCEL_SIG,
        _ => SHUTDOWN_SIG,
    }
}

/// The methods of an `#[agent]` block that are hooks, with their names.
pub fn hook_methods(block: &ItemImpl) -> impl Iterator<Item = (&'static str, &ImplItemFn)> {
    block.items.iter().filter_map(|item| {
        let ImplItem::Fn(method) = item else {
            return None;
        };
        let name = method.sig.ident.to_string();
        HOOKS
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(n, _)| (*n, method))
    })
}

impl<'a> ImplModel<'a> {
    /// Reads the hook methods of an `#[agent]` block (their signatures are `check.rs`'s). An
    /// error when it has no `execute` method.
    pub fn from_block(attr: &AgentAttr, block: &'a ItemImpl) -> syn::Result<Self> {
        let find = |name: &str| {
            hook_methods(block)
                .find(|(n, _)| *n == name)
                .map(|(_, method)| Hook::Method(method))
        };
        let execute = find("execute").ok_or_else(|| {
            syn::Error::new_spanned(
                &block.self_ty,
                format!("#[agent] needs an `execute` method in this impl block: write `{EXECUTE_SIG} {{ … }}`"),
            )
        })?;
        Ok(Self {
            krate: attr.krate.clone().unwrap_or_default(),
            generics: &block.generics,
            self_ty: &block.self_ty,
            execute,
            cancel: find("cancel"),
            on_shutdown: find("on_shutdown"),
        })
    }
}

impl Card {
    /// The card the attribute and the block's docs describe; a skill's name defaults to its
    /// id, its description to the agent's, its tags to its id.
    pub fn from_attr(attr: &AgentAttr, block: &ItemImpl, errors: &mut Errors) -> Self {
        let description = description(attr, block);
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
        let skills = attr
            .skills
            .iter()
            .map(|skill| {
                let id = skill.id.as_ref().map(LitStr::value).unwrap_or_default();
                Skill {
                    name: skill
                        .name
                        .as_ref()
                        .map_or_else(|| id.clone(), LitStr::value),
                    description: skill
                        .description
                        .as_ref()
                        .map_or_else(|| description.clone(), LitStr::value),
                    tags: skill.tags.as_ref().map_or_else(|| vec![id.clone()], values),
                    examples: skill.examples.as_ref().map(values).unwrap_or_default(),
                    input_modes: skill.input_modes.as_ref().map(values),
                    output_modes: skill.output_modes.as_ref().map(values),
                    id,
                }
            })
            .collect();
        Self {
            name,
            description,
            version: attr.version.clone(),
            provider: attr.provider.clone(),
            documentation_url: attr.documentation_url.clone(),
            icon_url: attr.icon_url.clone(),
            streaming: attr.streaming.is_some_and(|f| f.value),
            push_notifications: attr.push_notifications.is_some_and(|f| f.value),
            input_modes: modes(attr.input_modes.as_ref()),
            output_modes: modes(attr.output_modes.as_ref()),
            skills,
        }
    }
}

/// The agent's description: `description = "…"`, else the block's `///` docs.
fn description(attr: &AgentAttr, block: &ItemImpl) -> String {
    let docs = crate::util::join_doc(&crate::util::doc_lines(&block.attrs));
    attr.description.as_ref().map_or(docs, LitStr::value)
}

fn modes(list: Option<&StrList>) -> Vec<String> {
    list.map_or_else(|| vec!["text/plain".to_owned()], values)
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
