//! Syntax of `#[prompt(…)]`: every key keeps its span; every bad key is reported.

use proc_macro2::TokenStream;
use syn::LitStr;
use syn::meta::ParseNestedMeta;

use crate::attr::{self, Keys, set_once};
use crate::diag::Errors;
use crate::krate::CratePath;

const PROMPT: Keys = Keys {
    what: "#[prompt]",
    keys: &["name", "title", "description", "icon", "crate"],
};

/// `#[prompt(…)]`.
#[derive(Default)]
pub struct PromptAttr {
    pub name: Option<LitStr>,
    pub title: Option<LitStr>,
    pub description: Option<LitStr>,
    pub icon: Option<LitStr>,
    pub krate: Option<CratePath>,
}

impl PromptAttr {
    pub fn parse(args: TokenStream, errors: &mut Errors) -> Self {
        let mut attr = Self::default();
        attr::parse_args(args, errors, |meta, _| attr.parse_key(meta));
        attr
    }

    fn parse_key(&mut self, meta: &ParseNestedMeta<'_>) -> syn::Result<()> {
        match attr::key_of(meta).as_str() {
            "name" => set_once(&mut self.name, meta, |m| attr::string(m, "code_review")),
            "title" => set_once(&mut self.title, meta, |m| attr::string(m, "Code review")),
            "description" => set_once(&mut self.description, meta, |m| {
                attr::string(m, "Reviews code.")
            }),
            "icon" => set_once(&mut self.icon, meta, |m| {
                attr::string(m, "https://example.com/icon.png")
            }),
            "crate" => set_once(&mut self.krate, meta, |m| {
                CratePath::parse_value(m.value()?)
            }),
            _ => Err(PROMPT.error(meta)),
        }
    }

    pub fn krate(&self) -> CratePath {
        self.krate.clone().unwrap_or_default()
    }
}
