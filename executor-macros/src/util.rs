//! Doc comments, tool names and JSON string literals.

use std::fmt::Write as _;

use syn::{Attribute, Expr, Lit, Meta};

/// The lines of `///` comments (`#[doc = "…"]`), one leading space removed.
pub fn doc_lines(attrs: &[Attribute]) -> Vec<String> {
    let mut lines = Vec::new();
    for attr in attrs {
        if !attr.path().is_ident("doc") {
            continue;
        }
        if let Meta::NameValue(nv) = &attr.meta
            && let Expr::Lit(lit) = &nv.value
            && let Lit::Str(s) = &lit.lit
        {
            let value = s.value();
            for line in value.split('\n') {
                lines.push(line.strip_prefix(' ').unwrap_or(line).trim_end().to_owned());
            }
        }
    }
    lines
}

/// Joins doc lines into one description: paragraphs kept, outer blank lines trimmed.
pub fn join_doc(lines: &[String]) -> String {
    lines.join("\n").trim().to_owned()
}

/// Splits a rustdoc `# Arguments` (or `# Parameters`) section out of a function's docs.
/// Returns the remaining description and `(name, description)` pairs from list items written
/// `` * `name` - text ``, `` - `name`: text `` or `* name - text`.
pub fn split_arguments_section(lines: &[String]) -> (String, Vec<(String, String)>) {
    let mut rest = Vec::new();
    let mut args: Vec<(String, String)> = Vec::new();
    let mut in_section = false;
    for line in lines {
        let trimmed = line.trim();
        if let Some(heading) = trimmed.strip_prefix('#') {
            let heading = heading.trim_start_matches('#').trim();
            in_section = heading.eq_ignore_ascii_case("arguments")
                || heading.eq_ignore_ascii_case("parameters");
            if in_section {
                continue;
            }
        }
        if !in_section {
            rest.push(line.clone());
            continue;
        }
        if let Some(item) = trimmed
            .strip_prefix("* ")
            .or_else(|| trimmed.strip_prefix("- "))
        {
            if let Some(pair) = parse_item(item) {
                args.push(pair);
            }
        } else if !trimmed.is_empty()
            && let Some(last) = args.last_mut()
        {
            last.1.push(' ');
            last.1.push_str(trimmed);
        }
    }
    (join_doc(&rest), args)
}

fn parse_item(item: &str) -> Option<(String, String)> {
    let item = item.trim();
    let (name, after) = if let Some(stripped) = item.strip_prefix('`') {
        let end = stripped.find('`')?;
        (&stripped[..end], &stripped[end + 1..])
    } else {
        let end = item.find(|c: char| !(c.is_alphanumeric() || c == '_'))?;
        (&item[..end], &item[end..])
    };
    let text = after
        .trim_start()
        .trim_start_matches(['-', ':', '—'])
        .trim();
    (!name.is_empty()).then(|| (name.to_owned(), text.to_owned()))
}

/// Tool names are what MCP and the LLM providers all accept: `^[A-Za-z0-9_.-]{1,64}$`.
pub fn check_tool_name(name: &str) -> Result<(), String> {
    let ok = !name.is_empty()
        && name.len() <= 64
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-'));
    if ok {
        Ok(())
    } else {
        Err(format!(
            "invalid tool name `{name}`; a tool name is 1 to 64 characters from `A-Z a-z 0-9 _ . -`"
        ))
    }
}

/// A JSON string literal.
pub fn json_string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Whether a parameter is optional: written `Option<…>` (what `#[tool]`, `#[prompt]` and
/// `#[resource]` document as "not required").
pub fn is_option(ty: &syn::Type) -> bool {
    matches!(ty, syn::Type::Path(p) if p.qself.is_none() && p.path.segments.last().is_some_and(|s| s.ident == "Option" && !s.arguments.is_empty()))
}

/// `Some(true)` for `&ToolContext`, `Some(false)` after reporting `&mut ToolContext` or
/// `ToolContext` by value, `None`
/// for any other type. The type is checked by rustc too: the generated call passes a
/// `&tool_executor::ToolContext`, so a different type named `ToolContext` fails to compile
/// instead of being silently injected.
pub fn context_param(ty: &syn::Type, errors: &mut crate::diag::Errors) -> Option<bool> {
    if let syn::Type::Path(p) = ty
        && p.qself.is_none()
        && p.path.segments.last()?.ident == "ToolContext"
    {
        errors.spanned(
            ty,
            "take the context by reference: `ctx: &ToolContext`; it is lent for the call, not moved into it",
        );
        return Some(false);
    }
    let syn::Type::Reference(r) = ty else {
        return None;
    };
    let syn::Type::Path(p) = &*r.elem else {
        return None;
    };
    if p.qself.is_some() || p.path.segments.last()?.ident != "ToolContext" {
        return None;
    }
    if let Some(m) = &r.mutability {
        errors.spanned(
            m,
            "take the context by shared reference: `ctx: &ToolContext`",
        );
        return Some(false);
    }
    Some(true)
}

// Input:  impl Library { fn greet(&self, …) … }   and the items of `impl Prompts`
// Output: impl Library { fn greet(&self, …) … }
//         const _: () = { use …::__private as __rt; impl __rt::Prompts for Library { <items> } };
/// The user's `impl` block, then `impl __rt::<trait_ident> for` its type (with its generics)
/// holding `items`: the one header `#[tools]`, `#[prompts]`, `#[resources]` and their
/// fallbacks share.
pub fn impl_for_block(
    block: &syn::ItemImpl,
    runtime: &proc_macro2::TokenStream,
    trait_ident: &syn::Ident,
    items: &proc_macro2::TokenStream,
) -> proc_macro2::TokenStream {
    let (impl_generics, _, where_clause) = block.generics.split_for_impl();
    let self_ty = &block.self_ty;
    quote::quote! {
        #block

        #[allow(unused_qualifications)] // every runtime path goes through `__rt` on purpose
        const _: () = {
            #runtime

            #[automatically_derived]
            impl #impl_generics __rt::#trait_ident for #self_ty #where_clause {
                #items
            }
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert!(check_tool_name("get_weather.v2-beta").is_ok());
        assert!(check_tool_name("").is_err());
        assert!(check_tool_name("has space").is_err());
        assert!(check_tool_name(&"x".repeat(65)).is_err());
    }

    #[test]
    fn arguments_section() {
        let lines: Vec<String> = [
            "Looks up weather.",
            "",
            "# Arguments",
            "* `city` - The city.",
            "  Continued here.",
            "- `unit`: Celsius or Fahrenheit",
            "",
            "# Errors",
            "When the city is unknown.",
        ]
        .iter()
        .map(|s| (*s).to_owned())
        .collect();
        let (desc, args) = split_arguments_section(&lines);
        assert_eq!(
            desc,
            "Looks up weather.\n\n# Errors\nWhen the city is unknown."
        );
        assert_eq!(
            args,
            vec![
                ("city".to_owned(), "The city. Continued here.".to_owned()),
                ("unit".to_owned(), "Celsius or Fahrenheit".to_owned())
            ]
        );
    }

    #[test]
    fn json_escapes() {
        assert_eq!(json_string("a \"b\"\n\\"), r#""a \"b\"\n\\""#);
    }
}
