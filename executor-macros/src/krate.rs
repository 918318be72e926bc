//! The path generated code uses to reach the runtime: `::tool_executor` unless overridden with
//! `crate = ::some::reexport`.

use proc_macro2::TokenStream;
use quote::{ToTokens, quote};

#[derive(Clone, Default)]
pub struct CratePath(Option<syn::Path>);

impl CratePath {
    /// Parses the value of a `crate = …` key. Relative paths are rejected: they would resolve
    /// differently in every module the macro is used in (bon's rule).
    pub fn parse_value(input: syn::parse::ParseStream<'_>) -> syn::Result<Self> {
        let path: syn::Path = input.parse()?;
        let absolute = path.leading_colon.is_some()
            || path
                .segments
                .first()
                .is_some_and(|s| s.ident == "crate" || s.ident == "$crate");
        if !absolute {
            return Err(syn::Error::new_spanned(
                &path,
                "`crate` must be an absolute path; write `crate = ::tool_executor` or `crate = crate::reexport`",
            ));
        }
        Ok(Self(Some(path)))
    }
}

impl CratePath {
    /// Parses the optional `crate = ::path;` that function-like macros take first
    /// (`toolset!(crate = …; a, b)`, `agent_executor!(crate = …; Ty, …)`).
    pub fn parse_prefix(input: syn::parse::ParseStream<'_>) -> syn::Result<Self> {
        if !(input.peek(syn::Token![crate]) && input.peek2(syn::Token![=])) {
            return Ok(Self::default());
        }
        input.parse::<syn::Token![crate]>()?;
        input.parse::<syn::Token![=]>()?;
        let krate = Self::parse_value(input)?;
        input.parse::<syn::Token![;]>()?;
        Ok(krate)
    }
}

impl CratePath {
    /// `use ::tool_executor::__private as __rt;`, first in every expansion's `const _` block:
    /// generated code names the runtime through this one alias (serde's `_serde`), so an
    /// expansion reads `__rt::ToolSpec`, `__rt::Some(…)`.
    pub fn runtime(&self) -> TokenStream {
        quote!(use #self::__private as __rt;)
    }
}

impl ToTokens for CratePath {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        match &self.0 {
            Some(path) => path.to_tokens(tokens),
            None => tokens.extend(quote!(::tool_executor)),
        }
    }
}
