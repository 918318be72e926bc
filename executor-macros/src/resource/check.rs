//! The rules of a `#[resource]` across its attribute and its parameters.

use crate::catalog_fn::CatalogFn;
use crate::diag::Errors;

use super::parse::ResourceAttr;

/// Exactly one of `uri` and `template`; a fixed URI takes no parameters; a template's
/// variables and the parameters are the same names. Returns the template's variables (`None`
/// for a fixed URI or an error).
pub fn check_uri(
    attr: &ResourceAttr,
    model: &CatalogFn,
    errors: &mut Errors,
) -> Option<Vec<String>> {
    match (&attr.uri, &attr.template) {
        (Some(_), Some(template)) => {
            errors.spanned(
                template,
                "a resource has a `uri` or a `template`, not both; keep `uri` for one resource, `template` for a family",
            );
            None
        }
        (None, None) => {
            errors.at(
                attr.span.unwrap_or_else(proc_macro2::Span::call_site),
                "#[resource] needs an address: write `#[resource(uri = \"docs://readme\")]`, or `#[resource(template = \"notes://{id}\")]` with a parameter `id`",
            );
            None
        }
        (Some(uri), None) => {
            if uri.value().trim().is_empty() {
                errors.spanned(
                    uri,
                    "a resource URI cannot be empty; write one such as `\"docs://readme\"`",
                );
            }
            for p in model.args() {
                errors.spanned(
                    &p.ident,
                    format!(
                        "a resource with a fixed `uri` takes no arguments; remove `{}`, or make the resource a `template` with `{{{}}}` in it",
                        p.name, p.name
                    ),
                );
            }
            None
        }
        (None, Some(template)) => {
            let variables = match template_variables(&template.value()) {
                Ok(vars) => vars,
                Err(why) => {
                    errors.spanned(template, why);
                    return None;
                }
            };
            check_variables(template, &variables, model, errors);
            Some(variables)
        }
    }
}

/// Every variable has a parameter and every parameter a variable.
fn check_variables(
    template: &syn::LitStr,
    variables: &[String],
    model: &CatalogFn,
    errors: &mut Errors,
) {
    for var in variables {
        if !model.args().any(|p| p.name == *var) {
            errors.spanned(
                template,
                format!("template variable `{{{var}}}` has no parameter; add `{var}: String` (or another type) to the function"),
            );
        }
    }
    for p in model.args() {
        if !variables.contains(&p.name) {
            errors.spanned(
                &p.ident,
                format!("parameter `{}` is not a variable of the template; add `{{{}}}` to the template or remove the parameter", p.name, p.name),
            );
        }
    }
}

/// The variables of a level-1 URI template, with the rules `UriTemplate::parse` applies at run
/// time (`catalog/resource.rs`; a proc-macro crate cannot call it).
fn template_variables(text: &str) -> Result<Vec<String>, String> {
    let mut vars: Vec<String> = Vec::new();
    let mut rest = text;
    let mut after_variable = false;
    while let Some(open) = rest.find('{') {
        if open == 0 && after_variable {
            return Err("two variables need text between them, as in `{a}/{b}`".into());
        }
        let close = rest[open..]
            .find('}')
            .ok_or_else(|| format!("`{{` at `{}` is never closed", &rest[open..]))?;
        let name = &rest[open + 1..open + close];
        let valid = name
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        if !valid {
            return Err(format!(
                "`{{{name}}}` is not a variable; write a name such as `{{id}}`"
            ));
        }
        if vars.iter().any(|v| v == name) {
            return Err(format!("variable `{name}` appears twice"));
        }
        vars.push(name.to_owned());
        rest = &rest[open + close + 1..];
        after_variable = true;
    }
    if rest.contains('}') {
        return Err("`}` without a `{` before it".into());
    }
    if vars.is_empty() {
        return Err(
            "a template has at least one `{variable}`; for one fixed address write `uri = \"…\"`"
                .into(),
        );
    }
    Ok(vars)
}
