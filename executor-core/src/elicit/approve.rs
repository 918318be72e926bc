//! `#[tool(confirm)]`: the user approves each call, shown a summary built from the exact
//! arguments, before the body runs.

use std::fmt::Write as _;

use serde_json::Value;

use crate::failure::ToolFailure;
use crate::tool::context::ToolContext;

/// The longest a value is shown in an approval's summary, in characters.
const MAX_SHOWN: usize = 120;

/// Asks the user to approve the call of `tool` with `params`: `Ok` when approved.
///
/// # Errors
/// A terminal failure with code `not_approved` when the user declines or cancels, or the
/// question's own failure (`elicitation_unsupported` when nothing can ask).
pub async fn approve(tool: &str, ctx: &ToolContext, params: &Value) -> Result<(), ToolFailure> {
    let approved = ctx.confirm(summary(tool, params)).await?;
    approved.then_some(()).ok_or_else(|| not_approved(tool))
}

/// [`approve`] for a sync tool's body.
///
/// # Errors
/// As [`approve`].
pub fn approve_blocking(tool: &str, ctx: &ToolContext, params: &Value) -> Result<(), ToolFailure> {
    let approved = ctx.confirm_blocking(summary(tool, params))?;
    approved.then_some(()).ok_or_else(|| not_approved(tool))
}

fn not_approved(tool: &str) -> ToolFailure {
    ToolFailure::terminal(format!("the user did not approve this call of `{tool}`"))
        .with_code("not_approved")
}

/// `Run delete_note with id = 4, force = true?`: every argument, in name order, each value as
/// compact JSON cut at 120 characters.
#[must_use]
pub fn summary(tool: &str, params: &Value) -> String {
    let mut out = format!("Run {tool}");
    if let Value::Object(args) = params {
        let mut names: Vec<&String> = args.keys().collect();
        names.sort();
        for (i, name) in names.into_iter().enumerate() {
            out.push_str(if i == 0 { " with " } else { ", " });
            let value = args[name].to_string();
            let _ = write!(out, "{name} = {}", cut(&value));
        }
    }
    out.push('?');
    out
}

fn cut(text: &str) -> String {
    match text.char_indices().nth(MAX_SHOWN) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text.to_owned(),
    }
}
