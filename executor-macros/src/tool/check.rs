//! The rules that span several nodes of a model, one commented function per rule (serde's
//! `check.rs`).

use syn::{LitStr, Path, Signature};

use super::model::{Param, Site, ToolFn};
use crate::attr::path_text;
use crate::diag::Errors;

/// What a tool's signature cannot be: `unsafe`, `extern`, variadic, generic over types, and
/// `self` where the site does not allow it.
pub fn check_signature(sig: &Signature, site: Site, errors: &mut Errors) {
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
        (Some(receiver), Site::Free) => errors.spanned(
            receiver,
            "`self` is not allowed in a free #[tool] fn; put the method in an `impl` block marked `#[tools]`",
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

/// A sync method cannot honour a `timeout`: a sync free fn runs on the blocking pool so the
/// call can end while it blocks, but a method's `&self` cannot move to another thread, and a
/// timeout the body never yields to would fire only after the body returned (issue 15).
pub fn check_sync_method_timeout(
    sig: &Signature,
    site: Site,
    timeout: Option<&(u64, LitStr)>,
    errors: &mut Errors,
) {
    if let (Site::Method, None, Some((_, lit))) = (site, &sig.asyncness, timeout) {
        errors.spanned(
            lit,
            "a sync #[tool] method cannot have a `timeout`: `&self` cannot move to the blocking pool, so nothing could end the call while it blocks; make it an `async fn` (run the blocking part with `tokio::task::spawn_blocking`), or a free #[tool] fn",
        );
    }
}

/// Every argument has its own JSON name, and the context is taken at most once.
pub fn check_unique_names(params: &[Param], sig: &Signature, errors: &mut Errors) {
    let mut seen: Vec<&str> = Vec::new();
    let mut contexts = 0;
    for param in params {
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
        errors.spanned(&sig.inputs, "take `&ToolContext` once");
    }
}

/// Two `#[tool]` methods of one `#[tools]` block cannot share a tool name.
pub fn check_unique_methods(tools: &[ToolFn], errors: &mut Errors) {
    for (i, model) in tools.iter().enumerate() {
        if tools[..i].iter().any(|m| m.name == model.name) {
            errors.spanned(
                &model.ident,
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
