//! What `#[prompt]` and `#[resource]` share: the function read as a model (its name, docs,
//! parameters with their `#[arg(description, complete)]` and doc comments, whether it is
//! async, its return type), the parameters' checks, and the expansion pieces built from it
//! (argument decoding, the completion match, the struct named like the function).

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::meta::ParseNestedMeta;
use syn::spanned::Spanned;
use syn::{FnArg, ItemFn, LitStr, Pat, ReturnType, Signature, Type};

use crate::attr::{self, Keys, set_once};
use crate::diag::Errors;
use crate::krate::CratePath;
use crate::util;

const ARG: Keys = Keys {
    what: "#[arg]",
    keys: &["description", "complete", "rename"],
};

/// One parameter: a prompt argument or a template variable, read from a JSON string, or the
/// injected `&ToolContext`.
pub struct Param {
    pub ident: syn::Ident,
    pub name: String,
    pub ty: Type,
    /// `ctx: &ToolContext`: the caller's context, not an argument.
    pub context: bool,
    /// For a reference parameter (`&str`, `&[T]`, `&T`), the owned type decoded into the
    /// frame and lent (`String`, `Vec<T>`, `T`); `None` for an owned parameter.
    pub owned: Option<Type>,
    pub description: Option<String>,
    pub required: bool,
    /// `#[arg(complete = path)]`: `fn(&str) -> Vec<String>` for `completion/complete`.
    pub complete: Option<syn::Path>,
}

/// Where the function sits: a free fn, or a method of a `#[prompts]`/`#[resources]` block.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Site {
    Free,
    Method,
}

/// The function of a `#[prompt]` or `#[resource]`.
pub struct CatalogFn {
    pub ident: syn::Ident,
    pub description: String,
    pub is_async: bool,
    /// In the function's order, the context among them.
    pub params: Vec<Param>,
    /// The span to blame when the return type does not convert.
    pub ret_span: Span,
    pub site: Site,
}

impl CatalogFn {
    /// Reads the function (`attrs` its attributes), removing `#[arg]` and doc attributes from
    /// its parameters (so the emitted function compiles whatever else is wrong). `what` is the
    /// macro (`#[prompt]`), `block` the block's macro (`#[prompts]`).
    pub fn from_syn(
        attrs: &[syn::Attribute],
        sig: &mut Signature,
        site: Site,
        (what, block): (&str, &str),
        errors: &mut Errors,
    ) -> Self {
        let doc = util::doc_lines(attrs);
        let (description, doc_args) = util::split_arguments_section(&doc);
        check_receiver(sig, site, (what, block), errors);
        let mut params = Vec::new();
        for input in &mut sig.inputs {
            let FnArg::Typed(pt) = input else { continue };
            let ArgAttr {
                description,
                complete,
                rename,
            } = strip_attrs(&mut pt.attrs, errors);
            let Pat::Ident(pat) = &*pt.pat else {
                errors.spanned(
                    &pt.pat,
                    format!("{what} arguments are named; write `name: Type`"),
                );
                continue;
            };
            match util::context_param(&pt.ty, errors) {
                Some(true) => {
                    params.push(Param {
                        ident: pat.ident.clone(),
                        name: String::new(),
                        ty: (*pt.ty).clone(),
                        context: true,
                        owned: None,
                        description: None,
                        required: false,
                        complete: None,
                    });
                    continue;
                }
                Some(false) => continue,
                None => {}
            }
            if let Type::Reference(r) = &*pt.ty
                && r.mutability.is_some()
            {
                errors.spanned(
                    r,
                    format!("{what} arguments are read from the request; take them by value or by `&`, not `&mut`"),
                );
                continue;
            }
            let name = rename.map_or_else(
                || pat.ident.to_string().trim_start_matches("r#").to_owned(),
                |l| l.value(),
            );
            let description = description.or_else(|| {
                doc_args
                    .iter()
                    .find(|(n, _)| *n == name)
                    .map(|(_, d)| d.clone())
            });
            params.push(Param {
                ident: pat.ident.clone(),
                required: !util::is_option(&pt.ty),
                owned: owned_type(&pt.ty),
                ty: (*pt.ty).clone(),
                context: false,
                name,
                description,
                complete,
            });
        }
        let ret_span = match &sig.output {
            ReturnType::Default => sig.ident.span(),
            ReturnType::Type(_, ty) => ty.span(),
        };
        Self {
            ident: sig.ident.clone(),
            description,
            is_async: sig.asyncness.is_some(),
            params,
            ret_span,
            site,
        }
    }

    /// The parameters read from the request (the context left out).
    pub fn args(&self) -> impl Iterator<Item = &Param> {
        self.params.iter().filter(|p| !p.context)
    }

    /// The parameters decoded from `__executor_args`, then the call (awaited when async; a
    /// method called on `self`), its result in `__executor_out`.
    // Output: let name = __rt::catalog_arg::<String>(__executor_args, "name", true)?;
    //         let __executor_out = greet(name, __executor_ctx);
    pub fn call(&self) -> TokenStream {
        let ident = &self.ident;
        let decode = self.args().map(|p| {
            let Param {
                ident,
                name,
                ty,
                required,
                owned,
                ..
            } = p;
            let local = format_ident!("__executor_{}", ident, span = Span::mixed_site());
            let decoded = owned.as_ref().unwrap_or(ty);
            quote_spanned!(ty.span()=>
                let #local = __rt::catalog_arg::<#decoded>(__executor_args, #name, #required)?;
            )
        });
        let locals = self.params.iter().map(|p| {
            if p.context {
                return quote!(__executor_ctx);
            }
            let local = format_ident!("__executor_{}", p.ident, span = Span::mixed_site());
            if p.owned.is_some() {
                quote!(&#local)
            } else {
                quote!(#local)
            }
        });
        let await_ = self.is_async.then(|| quote!(.await));
        let callee = match self.site {
            Site::Free => quote!(#ident),
            Site::Method => quote!(self.#ident),
        };
        quote! {
            let _ = (__executor_args, __executor_ctx);
            #(#decode)*
            let __executor_out = #callee(#(#locals),*) #await_;
        }
    }

    /// `match __executor_argument { "name" => path(__executor_value), … }` over the
    /// parameters with a `complete` path; `None` when none has one.
    pub fn complete_match(&self) -> Option<TokenStream> {
        let arms: Vec<TokenStream> = self
            .args()
            .filter_map(|p| {
                let path = p.complete.as_ref()?;
                let name = &p.name;
                Some(quote_spanned!(path.span()=> #name => #path(__executor_value),))
            })
            .collect();
        if arms.is_empty() {
            return None;
        }
        Some(quote! {
            match __executor_argument {
                #(#arms)*
                _ => __rt::Vec::new(),
            }
        })
    }

    /// `fn complete(argument, value)` over the parameters with a `complete` path; nothing
    /// (the trait's default, no completions) when none has one.
    pub fn complete(&self) -> Option<TokenStream> {
        let body = self.complete_match()?;
        Some(quote! {
            fn complete(__executor_argument: &str, __executor_value: &str) -> __rt::Vec<__rt::String> {
                #body
            }
        })
    }

    /// The description as an `Option<String>` expression (`None` when empty).
    pub fn description_tokens(&self) -> TokenStream {
        optional_string((!self.description.is_empty()).then_some(&self.description))
    }
}

/// A free function takes no `self`; a method of a block takes `&self`.
fn check_receiver(sig: &Signature, site: Site, (what, block): (&str, &str), errors: &mut Errors) {
    match (sig.receiver(), site) {
        (Some(r), Site::Free) => errors.spanned(
            r,
            format!("{what} on a method needs {block} on its `impl` block; write `{block} impl Type {{ {what} fn name(&self, …) … }}`, or drop `self` for a free {what} fn"),
        ),
        (Some(r), Site::Method) => {
            if !matches!(r.kind, syn::ReceiverKind::Reference(_, _, None)) {
                errors.spanned(
                    r,
                    format!("a {what} method takes `&self`; keep mutable state behind a `Mutex` or an atomic"),
                );
            }
        }
        (None, Site::Method) => errors.spanned(
            &sig.ident,
            format!("a {what} method inside {block} takes `&self`; add it, or make this a free {what} fn"),
        ),
        (None, Site::Free) => {}
    }
}

/// What a reference parameter is decoded as: `&str` a `String`, `&[T]` a `Vec<T>`, `&T` a `T`.
fn owned_type(ty: &Type) -> Option<Type> {
    let Type::Reference(r) = ty else { return None };
    Some(match &*r.elem {
        Type::Path(p) if p.qself.is_none() && p.path.is_ident("str") => {
            syn::parse_quote_spanned!(r.elem.span()=> __rt::String)
        }
        Type::Slice(slice) => {
            let elem = &slice.elem;
            syn::parse_quote_spanned!(r.elem.span()=> __rt::Vec<#elem>)
        }
        other => other.clone(),
    })
}

/// `__rt::vec![__rt::Icon::new(src)]`, or an empty `Vec`.
pub fn icons(icon: Option<&LitStr>) -> TokenStream {
    icon.map_or_else(
        || quote!(__rt::Vec::new()),
        |src| quote!(__rt::vec![__rt::Icon::new(#src)]),
    )
}

/// `__rt::Some(__rt::String::from(value))`, or `__rt::None`.
pub fn optional_string(value: Option<impl quote::ToTokens>) -> TokenStream {
    value.map_or_else(
        || quote!(__rt::None),
        |v| quote!(__rt::Some(__rt::String::from(#v))),
    )
}

/// Which catalog macro: `prompt` or `resource` (its name, and `CatalogEntry`'s constructor).
#[derive(Clone, Copy)]
pub enum Kind {
    Prompt,
    Resource,
}

impl Kind {
    fn word(self) -> &'static str {
        match self {
            Self::Prompt => "prompt",
            Self::Resource => "resource",
        }
    }
}

// Output:
//     fn greet(…) -> … { … }
//     pub struct greet {}
//     const _: () = {
//         use ::tool_executor::__private as __rt;
//         #body
//         impl __rt::CatalogItem for greet { fn entry() … { __rt::CatalogEntry::prompt::<Self>() } }
//     };
/// The function, its struct and, in `const _`, `body` (the `Prompt` or `Resource` impl) and
/// the `CatalogItem` impl. With no `body` (the fallback on error), an entry that never runs.
pub fn items(
    func: &ItemFn,
    krate: &CratePath,
    kind: Kind,
    body: Option<&TokenStream>,
) -> TokenStream {
    let ident = &func.sig.ident;
    let runtime = krate.runtime();
    let word = kind.word();
    let doc =
        format!("The {word} generated by `#[{word}]` from [`{ident}()`], for `catalog![{ident}]`.");
    let strukt = struct_for(func, &doc);
    let constructor = syn::Ident::new(word, Span::call_site());
    let entry = if body.is_some() {
        quote!(__rt::CatalogEntry::#constructor::<Self>())
    } else {
        // Never run: the program does not compile.
        quote!(::core::unreachable!())
    };
    quote! {
        #func
        #strukt
        #[allow(unused_qualifications)]
        const _: () = {
            #runtime
            #body
            #[automatically_derived]
            impl __rt::CatalogItem for #ident {
                fn entry() -> __rt::CatalogEntry {
                    #entry
                }
            }
        };
    }
}

/// The struct named like the function (a braced struct lives only in the type namespace, so
/// the function's path also names it), documented.
fn struct_for(func: &ItemFn, doc: &str) -> TokenStream {
    let ident = &func.sig.ident;
    let vis = &func.vis;
    quote! {
        #[doc = #doc]
        #[allow(non_camel_case_types, dead_code)]
        #vis struct #ident {}
    }
}

/// Reports a missing description the way `#[tool]` does.
pub fn check_description(
    model: &CatalogFn,
    what: &str,
    attr_description: bool,
    errors: &mut Errors,
) {
    if model.description.is_empty() && !attr_description {
        errors.spanned(
            &model.ident,
            format!(
                "{what} `{}` has no description, and clients show it to people and models; add a `///` line above the fn saying what it is (`description = \"\"` leaves it empty on purpose)",
                model.ident
            ),
        );
    }
}

/// A parameter's `#[arg(…)]` and doc comment.
struct ArgAttr {
    description: Option<String>,
    complete: Option<syn::Path>,
    rename: Option<LitStr>,
}

fn strip_attrs(attrs: &mut Vec<syn::Attribute>, errors: &mut Errors) -> ArgAttr {
    let doc = util::join_doc(&util::doc_lines(attrs));
    let mut description: Option<LitStr> = None;
    let mut complete: Option<syn::Path> = None;
    let mut rename: Option<LitStr> = None;
    for a in attrs.iter().filter(|a| a.path().is_ident("arg")) {
        let result = a.parse_nested_meta(|meta| match attr::key_of(&meta).as_str() {
            "description" => set_once(&mut description, &meta, |m| {
                attr::string(m, "The city name.")
            }),
            "rename" => set_once(&mut rename, &meta, |m| attr::string(m, "resourceUri")),
            "complete" => set_once(&mut complete, &meta, complete_path),
            _ => Err(ARG.error(&meta)),
        });
        if let Err(e) = result {
            errors.push(e);
        }
    }
    attrs.retain(|a| !a.path().is_ident("arg") && !a.path().is_ident("doc"));
    let description = description
        .map(|l| l.value())
        .or_else(|| (!doc.is_empty()).then_some(doc));
    ArgAttr {
        description,
        complete,
        rename,
    }
}

/// `complete = path`.
fn complete_path(m: &ParseNestedMeta<'_>) -> syn::Result<syn::Path> {
    if !m.input.peek(syn::Token![=]) {
        return Err(m.error("`complete` takes a function: `complete = cities`"));
    }
    m.value()?.parse::<syn::Path>()
}
