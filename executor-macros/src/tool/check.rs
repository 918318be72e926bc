//! The rules a tool's model must follow, run after the model is read: one commented function
//! per rule (serde's `check.rs`), each reporting every violation it finds.

use syn::{ItemImpl, Path, ReturnType, Signature, Type};

use super::model::{Param, Site, ToolFn, ToolsImpl};
use crate::attr::path_text;
use crate::diag::Errors;

/// Every rule of one `#[tool]` fn or method.
pub fn check_fn(model: &ToolFn, errors: &mut Errors) {
    check_signature(&model.sig, model.site, errors);
    check_sync_method_timeout(model, errors);
    check_task_settings(model, errors);
    check_unique_names(model, errors);
    check_return_type(&model.sig.output, errors);
}

/// Every rule of a `#[tools]` block: those of each method, then those across them.
pub fn check_tools(model: &ToolsImpl, block: &ItemImpl, errors: &mut Errors) {
    check_inherent(block, errors);
    for tool in &model.tools {
        check_fn(tool, errors);
    }
    check_unique_methods(&model.tools, errors);
    check_has_tools(model, block, errors);
}

/// What a tool's signature cannot be: `unsafe`, `extern`, variadic, generic over types, and
/// `self` where the site does not allow it.
fn check_signature(sig: &Signature, site: Site, errors: &mut Errors) {
    if let syn::Safety::Unsafe(token) = &sig.safety {
        errors.spanned(
            token,
            "a #[tool] fn cannot be `unsafe`; call the unsafe code from a safe fn",
        );
    }
    if let Some(abi) = &sig.abi {
        errors.spanned(abi, "a #[tool] fn cannot have an ABI; remove `extern`");
    }
    if let Some(variadic) = &sig.variadic {
        errors.spanned(variadic, "a #[tool] fn cannot be variadic");
    }
    for param in &sig.generics.params {
        if !matches!(param, syn::GenericParam::Lifetime(_)) {
            errors.spanned(
                param,
                "a #[tool] fn cannot be generic: a tool needs one concrete schema; write a concrete type, or a non-generic wrapper fn that calls this one",
            );
        }
    }
    match (sig.receiver(), site) {
        // A method whose `impl` block lacks `#[tools]` (or a free fn with `self`): blamed on
        // the attribute, which is what needs to move.
        (Some(_), Site::Free) => errors.at(
            proc_macro2::Span::call_site(),
            "#[tool] on a method needs #[tools] on its `impl` block; write `#[tools] impl Type { #[tool] async fn name(&self, arg: Type) -> Output }`, or drop `self` for a free #[tool] fn",
        ),
        (Some(receiver), Site::Method) => {
            if !matches!(receiver.kind, syn::ReceiverKind::Reference(_, _, None)) {
                errors.spanned(receiver, "a #[tool] method takes `&self`; keep mutable state behind a `Mutex` or an atomic");
            }
        }
        (None, Site::Method) => errors.spanned(
            &sig.ident,
            "a #[tool] method inside #[tools] takes `&self`; add it, or make this a free #[tool] fn",
        ),
        (None, Site::Free) => {}
    }
}

/// `ttl` and `poll` describe a task, so they need `task`; and a sync method cannot be a task,
/// for the reason it cannot have a `timeout`: nothing could end it on `tasks/cancel` or at its
/// TTL while it blocks the thread it runs on.
fn check_task_settings(model: &ToolFn, errors: &mut Errors) {
    if model.task.is_none() {
        for lit in [&model.ttl, &model.poll]
            .into_iter()
            .flatten()
            .map(|(_, lit)| lit)
        {
            errors.spanned(
                lit,
                "`ttl` and `poll` are task settings; add `task = \"optional\"` or `task = \"required\"`, or remove them",
            );
        }
    }
    if let (Site::Method, false, Some((_, lit))) = (model.site, model.is_async, &model.task) {
        errors.spanned(
            lit,
            "a sync #[tool] method cannot be a task: `&self` cannot move to the blocking pool, so neither `tasks/cancel` nor the task's TTL could end it while it blocks; make it an `async fn`, or a free #[tool] fn",
        );
    }
}

/// A sync method cannot honour a `timeout`: a sync free fn runs on the blocking pool so the
/// call can end while it blocks, but a method's `&self` cannot move to another thread, and a
/// timeout the body never yields to would fire only after the body returned (issue 15).
fn check_sync_method_timeout(model: &ToolFn, errors: &mut Errors) {
    if let (Site::Method, false, Some((_, lit))) = (model.site, model.is_async, &model.timeout) {
        errors.spanned(
            lit,
            "a sync #[tool] method cannot have a `timeout`: `&self` cannot move to the blocking pool, so nothing could end the call while it blocks; make it an `async fn` (run the blocking part with `tokio::task::spawn_blocking`), or a free #[tool] fn",
        );
    }
}

/// Every argument has its own JSON name, and the context is taken at most once.
fn check_unique_names(model: &ToolFn, errors: &mut Errors) {
    let mut seen: Vec<&str> = Vec::new();
    let mut contexts = 0;
    for param in &model.params {
        match param {
            Param::Context => contexts += 1,
            Param::Arg(arg) => {
                if seen.contains(&arg.json_name.as_str()) {
                    errors.spanned(
                        &arg.ty,
                        format!(
                            "two arguments are named `{}`; rename one with #[arg(rename = \"…\")]",
                            arg.json_name
                        ),
                    );
                }
                seen.push(&arg.json_name);
            }
        }
    }
    if contexts > 1 {
        errors.spanned(&model.sig.inputs, "take `&ToolContext` once");
    }
}

/// A tool's output has a schema, so its type must be nameable, and a value must come back.
fn check_return_type(output: &ReturnType, errors: &mut Errors) {
    let ReturnType::Type(_, ty) = output else {
        return;
    };
    match &**ty {
        Type::ImplTrait(_) => errors.spanned(
            ty,
            "a #[tool] fn cannot return `impl Trait`: its output schema needs a nameable type; return a concrete type such as `Result<Weather, WeatherError>`",
        ),
        Type::Never(_) => errors.spanned(ty, "a #[tool] fn must return a value; `!` never does"),
        _ => {}
    }
}

/// `#[tools]` implements `ContextExecutor` for the block's type, from the block's own
/// methods: a trait impl has none of its own.
fn check_inherent(block: &ItemImpl, errors: &mut Errors) {
    if let Some((path, _)) = &block.trait_ {
        errors.spanned(
            path,
            "#[tools] goes on an inherent `impl Type` block, not a trait impl",
        );
    }
}

/// A `#[tools]` block serves its `#[tool]` methods; one without any is a forgotten `#[tool]`
/// (not reported on a trait impl, which `check_inherent` already rejects).
fn check_has_tools(model: &ToolsImpl, block: &ItemImpl, errors: &mut Errors) {
    if model.tools.is_empty() && block.trait_.is_none() {
        errors.spanned(
            &block.self_ty,
            "#[tools] found no #[tool] method; mark the methods to serve with #[tool]",
        );
    }
}

/// Two `#[tool]` methods of one `#[tools]` block cannot share a tool name.
fn check_unique_methods(tools: &[ToolFn], errors: &mut Errors) {
    for (i, model) in tools.iter().enumerate() {
        if tools[..i].iter().any(|m| m.name == model.name) {
            errors.spanned(
                model.ident(),
                format!(
                    "two #[tool] methods are named `{}`; give one another #[tool(name = \"…\")]",
                    model.name
                ),
            );
        }
    }
}

/// A path listed twice in `toolset!` is a mistake the macro sees by itself; two paths whose
/// tools share a name are checked by the compiler (the names are constants of the tools).
pub fn check_toolset_paths(paths: &[&Path], errors: &mut Errors) {
    for (i, path) in paths.iter().enumerate() {
        let text = path_text(path);
        if paths[..i].iter().any(|p| path_text(p) == text) {
            errors.spanned(
                path,
                format!("`{text}` is listed twice in toolset!; remove one"),
            );
        }
    }
}
