//! Helpers every attribute parser shares (`#[tool]`, `#[arg]`, `#[failure]`, `#[agent]`).

use syn::meta::ParseNestedMeta;

/// Stores the value of key `key` in `slot`, refusing a second occurrence.
pub fn set_once<T>(
    slot: &mut Option<T>,
    meta: &ParseNestedMeta<'_>,
    key: &str,
    parse: impl FnOnce(&ParseNestedMeta<'_>) -> syn::Result<T>,
) -> syn::Result<()> {
    if slot.is_some() {
        return Err(meta.error(format!("duplicate `{key}` key; write it once")));
    }
    *slot = Some(parse(meta)?);
    Ok(())
}

/// A key path as the user wrote it, for messages: `krate`, `a::b`.
pub fn path_text(path: &syn::Path) -> String {
    quote::quote!(#path).to_string().replace(' ', "")
}
