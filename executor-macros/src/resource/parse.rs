//! Syntax of `#[resource(…)]`: every key keeps its span; every bad key is reported.

use proc_macro2::{Span, TokenStream};
use syn::LitStr;
use syn::meta::ParseNestedMeta;

use crate::attr::{self, Keys, set_once};
use crate::diag::Errors;
use crate::krate::CratePath;

const RESOURCE: Keys = Keys {
    what: "#[resource]",
    keys: &[
        "uri",
        "template",
        "name",
        "title",
        "description",
        "mime_type",
        "icon",
        "crate",
    ],
};

/// `#[resource(…)]`.
#[derive(Default)]
pub struct ResourceAttr {
    pub uri: Option<LitStr>,
    pub template: Option<LitStr>,
    pub name: Option<LitStr>,
    pub title: Option<LitStr>,
    pub description: Option<LitStr>,
    pub mime_type: Option<LitStr>,
    pub icon: Option<LitStr>,
    pub krate: Option<CratePath>,
    /// The attribute's own span, for "no `uri` or `template`".
    pub span: Option<Span>,
}

impl ResourceAttr {
    pub fn parse(args: TokenStream, errors: &mut Errors) -> Self {
        let mut attr = Self {
            span: Some(if args.is_empty() {
                Span::call_site()
            } else {
                syn::spanned::Spanned::span(&args)
            }),
            ..Self::default()
        };
        attr::parse_args(args, errors, |meta, _| attr.parse_key(meta));
        attr
    }

    fn parse_key(&mut self, meta: &ParseNestedMeta<'_>) -> syn::Result<()> {
        match attr::key_of(meta).as_str() {
            "uri" => set_once(&mut self.uri, meta, |m| attr::string(m, "docs://readme")),
            "template" => set_once(&mut self.template, meta, |m| {
                attr::string(m, "notes://{id}")
            }),
            "name" => set_once(&mut self.name, meta, |m| attr::string(m, "readme")),
            "title" => set_once(&mut self.title, meta, |m| attr::string(m, "README")),
            "description" => set_once(&mut self.description, meta, |m| {
                attr::string(m, "The project's README.")
            }),
            "mime_type" => set_once(&mut self.mime_type, meta, |m| {
                attr::string(m, "text/markdown")
            }),
            "icon" => set_once(&mut self.icon, meta, |m| {
                attr::string(m, "https://example.com/icon.png")
            }),
            "crate" => set_once(&mut self.krate, meta, |m| {
                CratePath::parse_value(m.value()?)
            }),
            _ => Err(RESOURCE.error(meta)),
        }
    }

    pub fn krate(&self) -> CratePath {
        self.krate.clone().unwrap_or_default()
    }
}
