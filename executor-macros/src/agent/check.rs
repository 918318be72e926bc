//! The rules of `agent_executor!` and `#[agent]`, run after the model is read: one commented
//! function per rule (serde's `check.rs`), each reporting every violation it finds. They read
//! the parse result, which keeps every span, so a hook the model could not read is still
//! checked.

use proc_macro2::Span;
use quote::ToTokens;
use syn::{Expr, Ident, ImplItemFn, ItemImpl, Pat};

use super::model::{Card, closure_example, hook_arity, hook_methods, hook_signature};
use super::parse::{AgentAttr, Arms, ExecutorInput, StrList};
use crate::diag::Errors;

/// Every rule of `agent_executor!`.
pub fn check_executor(input: &ExecutorInput, errors: &mut Errors) {
    check_unique_arms(input, errors);
    for (arm, expr) in arms(input) {
        if let (Some(arity), Expr::Closure(closure)) = (hook_arity(&arm), expr) {
            check_closure_arity(&arm, closure, arity, errors);
            check_closure_untyped(&arm, closure, arity, errors);
            check_closure_no_return_type(&arm, closure, errors);
        }
    }
}

/// Every rule of `#[agent]`.
pub fn check_agent(attr: &AgentAttr, block: &ItemImpl, card: &Card, errors: &mut Errors) {
    for (name, method) in hook_methods(block) {
        check_hook_signature(name, method, errors);
    }
    check_description(card, errors);
    check_has_skill(attr, errors);
    check_skill_ids(attr, errors);
    check_unique_skill_ids(attr, errors);
    check_skill_tags(attr, errors);
    check_modes(attr, errors);
}

/// The arms with their names (`execute` for the short form).
fn arms(input: &ExecutorInput) -> Vec<(String, &Expr)> {
    match &input.arms {
        Arms::Short(expr) => vec![("execute".to_owned(), expr)],
        Arms::Named(arms) => arms
            .iter()
            .map(|(name, expr)| (name.to_string(), expr))
            .collect(),
    }
}

/// Each hook is written once: a second arm would silently replace the first.
fn check_unique_arms(input: &ExecutorInput, errors: &mut Errors) {
    let Arms::Named(arms) = &input.arms else {
        return;
    };
    let mut seen: Vec<&Ident> = Vec::new();
    for (name, _) in arms {
        if hook_arity(&name.to_string()).is_none() {
            continue;
        }
        if seen.contains(&name) {
            errors.spanned(name, format!("duplicate `{name}` arm; write it once"));
        } else {
            seen.push(name);
        }
    }
}

/// A hook's closure takes the parameters the hook is called with: `ctx` and `queue`, or none
/// for `on_shutdown`.
fn check_closure_arity(arm: &str, closure: &syn::ExprClosure, arity: usize, errors: &mut Errors) {
    if closure.inputs.len() == arity {
        return;
    }
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
        format!(
            "`{arm}` takes {what}, found {found}; write `{}`",
            closure_example(arity)
        ),
    );
}

/// The macro gives the parameters their types (the context and queue references with the
/// impl's lifetime), so a written type could only disagree.
fn check_closure_untyped(arm: &str, closure: &syn::ExprClosure, arity: usize, errors: &mut Errors) {
    for input in &closure.inputs {
        if let Pat::Type(typed) = input {
            errors.spanned(
                &typed.ty,
                format!(
                    "remove the parameter's type; `{arm}` knows its parameters' types: write `{}`",
                    closure_example(arity)
                ),
            );
        }
    }
}

/// The closure returns what its `async` block does; a written return type could only disagree.
fn check_closure_no_return_type(arm: &str, closure: &syn::ExprClosure, errors: &mut Errors) {
    if let syn::ReturnType::Type(arrow, ty) = &closure.output {
        errors.spanned(
            quote::quote!(#arrow #ty),
            format!(
                "remove the closure's return type; `{arm}` returns what its `async` block does"
            ),
        );
    }
}

/// A hook method is `async fn name(&self, <its parameters>)`, not generic: the generated
/// `AgentExecutor` impl calls it as such.
fn check_hook_signature(name: &str, method: &ImplItemFn, errors: &mut Errors) {
    let signature = hook_signature(name);
    let args = hook_arity(name).unwrap_or(0);
    let sig = &method.sig;
    if let Err(e) = method.modifiers.require_empty() {
        errors.push(e);
    }
    let mut wrong = |tokens: &dyn ToTokens, what: &str| {
        errors.spanned(
            tokens.to_token_stream(),
            format!("{what}; write `{signature}`"),
        );
    };
    if sig.asyncness.is_none() {
        wrong(&sig.fn_token, &format!("`{name}` must be an `async fn`"));
    }
    if !sig.generics.params.is_empty() || sig.generics.where_clause.is_some() {
        wrong(&sig.generics, &format!("`{name}` cannot be generic"));
    }
    match sig.receiver() {
        Some(receiver) if matches!(&receiver.kind, syn::ReceiverKind::Reference(_, _, None)) => {}
        Some(receiver) => wrong(receiver, &format!("`{name}` takes `&self`")),
        None => wrong(&sig.ident, &format!("`{name}` takes `&self`")),
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
}

/// A card describes the agent: clients pick agents by their description.
fn check_description(card: &Card, errors: &mut Errors) {
    if card.description.is_empty() {
        errors.at(
            Span::call_site(),
            "#[agent] needs a description: write a `///` doc comment on the impl block or `description = \"…\"`",
        );
    }
}

/// A2A 1.0 cards list what the agent can do as skills.
fn check_has_skill(attr: &AgentAttr, errors: &mut Errors) {
    if attr.skills.is_empty() {
        errors.at(
            Span::call_site(),
            "#[agent] needs at least one skill, as A2A 1.0 cards list what the agent can do: \
             write `skill(id = \"…\", description = \"…\", tags = [\"…\"])`",
        );
    }
}

/// Every skill has a non-empty id: clients name the skill they call by it.
fn check_skill_ids(attr: &AgentAttr, errors: &mut Errors) {
    for skill in &attr.skills {
        match &skill.id {
            None => errors.at(
                skill.span,
                "a skill needs an id: write `skill(id = \"…\", …)`",
            ),
            Some(id) if id.value().is_empty() => errors.spanned(id, "a skill id cannot be empty"),
            Some(_) => {}
        }
    }
}

/// Two skills with one id would be indistinguishable to a client.
fn check_unique_skill_ids(attr: &AgentAttr, errors: &mut Errors) {
    let mut seen: Vec<String> = Vec::new();
    for id in attr.skills.iter().filter_map(|s| s.id.as_ref()) {
        let value = id.value();
        if value.is_empty() {
            continue;
        }
        if seen.contains(&value) {
            errors.spanned(
                id,
                format!("duplicate skill id `{value}`; give each skill its own id"),
            );
        } else {
            seen.push(value);
        }
    }
}

/// A skill's tags are how clients find it; an empty list is a forgotten tag (leaving `tags`
/// out uses the id).
fn check_skill_tags(attr: &AgentAttr, errors: &mut Errors) {
    for list in attr.skills.iter().filter_map(|s| s.tags.as_ref()) {
        if list.items.is_empty() {
            errors.at(
                list.span,
                "a skill needs at least one tag: write `tags = [\"…\"]`",
            );
        }
    }
}

/// An agent accepts and produces at least one media type (leaving the key out means
/// `text/plain`).
fn check_modes(attr: &AgentAttr, errors: &mut Errors) {
    let lists: [(&str, Option<&StrList>); 2] = [
        ("input_modes", attr.input_modes.as_ref()),
        ("output_modes", attr.output_modes.as_ref()),
    ];
    for (key, list) in lists {
        if let Some(list) = list.filter(|l| l.items.is_empty()) {
            errors.at(
                list.span,
                format!("`{key}` needs at least one media type, e.g. `[\"text/plain\"]`"),
            );
        }
    }
}
