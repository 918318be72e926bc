//! What `#[prompt]` and `#[resource]` share: the function read as a model (its name, docs,
//! parameters with their `#[arg(description, complete)]` and doc comments, whether it is
//! async, its return type), the parameters' checks, and the expansion pieces built from it
//! (argument decoding, the completion match, the struct named like the function).

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::meta::ParseNestedMeta;
use syn::spanned::Spanned;
use syn::{FnArg, ItemFn, LitStr, Pat, ReturnType, Type};

use crate::attr::{self, Keys, set_once};
use crate::diag::Errors;
use crate::krate::CratePath;
use crate::util;

const ARG: Keys = Keys {
    what: "#[arg]",
    keys: &["description", "complete", "rename"],
};

/// One parameter: a prompt argument or a template variable, read from a JSON string.
pub struct Param {
    pub ident: syn::Ident,
    pub name: String,
    pub ty: Type,
    /// For a reference parameter (`&str`, `&[T]`, `&T`), the owned type decoded into the
    /// frame and lent (`String`, `Vec<T>`, `T`); `None` for an owned parameter.
    pub owned: Option<Type>,
    pub description: Option<String>,
    pub required: bool,
    /// `#[arg(complete = path)]`: `fn(&str) -> Vec<String>` for `completion/complete`.
    pub complete: Option<syn::Path>,
}

/// The function of a `#[prompt]` or `#[resource]`.
pub struct CatalogFn {
    pub ident: syn::Ident,
    pub description: String,
    pub is_async: bool,
    pub params: Vec<Param>,
    /// The span to blame when the return type does not convert.
    pub ret_span: Span,
}

impl CatalogFn {
    /// Reads `func`, removing `#[arg]` and doc attributes from its parameters (so the emitted
    /// function compiles whatever else is wrong). `what` is the macro (`#[prompt]`).
    pub fn from_syn(func: &mut ItemFn, what: &str, errors: &mut Errors) -> Self {
        let doc = util::doc_lines(&func.attrs);
        let (description, doc_args) = util::split_arguments_section(&doc);
        if let Err(e) = func.modifiers.require_empty() {
            errors.push(e);
        }
        let mut params = Vec::new();
        for input in &mut func.sig.inputs {
            let pt = match input {
                FnArg::Receiver(r) => {
                    errors.spanned(
                        &*r,
                        format!("{what} goes on a free function; move it out of the `impl` block and take what it needs as arguments"),
                    );
                    continue;
                }
                FnArg::Typed(pt) => pt,
            };
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
                name,
                description,
                complete,
            });
        }
        let ret_span = match &func.sig.output {
            ReturnType::Default => func.sig.ident.span(),
            ReturnType::Type(_, ty) => ty.span(),
        };
        Self {
            ident: func.sig.ident.clone(),
            description,
            is_async: func.sig.asyncness.is_some(),
            params,
            ret_span,
        }
    }

    /// The parameters decoded from `__executor_args`, then the call (awaited when async).
    // Output: let name = __rt::catalog_arg::<String>(__executor_args, "name", true)?;
    //         greet(name)
    pub fn call(&self) -> TokenStream {
        let ident = &self.ident;
        let decode = self.params.iter().map(|p| {
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
            let local = format_ident!("__executor_{}", p.ident, span = Span::mixed_site());
            if p.owned.is_some() {
                quote!(&#local)
            } else {
                quote!(#local)
            }
        });
        let await_ = self.is_async.then(|| quote!(.await));
        quote! {
            #(#decode)*
            let __executor_out = #ident(#(#locals),*) #await_;
        }
    }

    /// `fn complete(argument, value)` over the parameters with a `complete` path; nothing
    /// (the trait's default, no completions) when none has one.
    pub fn complete(&self) -> Option<TokenStream> {
        let arms: Vec<TokenStream> = self
            .params
            .iter()
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
            fn complete(__executor_argument: &str, __executor_value: &str) -> __rt::Vec<__rt::String> {
                match __executor_argument {
                    #(#arms)*
                    _ => __rt::Vec::new(),
                }
            }
        })
    }

    /// The description as an `Option<String>` expression (`None` when empty).
    pub fn description_tokens(&self) -> TokenStream {
        optional_string((!self.description.is_empty()).then_some(&self.description))
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
