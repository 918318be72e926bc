//! The typed model of one tool function, with the spans diagnostics need: what the function
//! and its attributes say, each node read on its own (a part that cannot be read is reported
//! and left out, or kept as written). The rules across nodes run after it, in `check.rs`.

use proc_macro2::{Ident, Span, TokenStream};
use syn::{
    Attribute, Expr, FnArg, GenericArgument, ImplItem, ItemImpl, LitStr, Pat, PathArguments,
    ReturnType, Signature, Type,
};

use super::parse::{ArgAttr, ToolAttr, tools_args};
use crate::diag::Errors;
use crate::krate::CratePath;
use crate::util;

/// One `#[tool]` function or method.
pub struct ToolFn {
    /// The signature, `#[arg]` and doc attributes removed from its parameters.
    pub sig: Signature,
    pub site: Site,
    /// The tool's name (`#[tool(name)]` or the function's).
    pub name: String,
    pub title: Option<String>,
    pub description: String,
    pub read_only: Option<bool>,
    pub destructive: Option<bool>,
    pub idempotent: Option<bool>,
    pub open_world: Option<bool>,
    /// Milliseconds, and the literal for spans.
    pub timeout: Option<(u64, LitStr)>,
    /// `#[tool(tags = […])]`, in order.
    pub tags: Vec<String>,
    /// OAuth scopes a caller needs (`#[tool(scopes = "…")]`).
    pub scopes: Vec<String>,
    /// `#[tool(confirm)]`: each call asks the user's approval before the body runs.
    pub confirm: bool,
    /// `#[tool(icon = "…")]`.
    pub icon: Option<String>,
    /// `#[tool(task = …)]`: required or not, and the literal.
    pub task: Option<(bool, LitStr)>,
    /// `#[tool(ttl = …)]`: milliseconds, and the literal.
    pub ttl: Option<(u64, LitStr)>,
    /// `#[tool(poll = …)]`: milliseconds, and the literal.
    pub poll: Option<(u64, LitStr)>,
    pub krate: CratePath,
    pub is_async: bool,
    pub params: Vec<Param>,
    pub ret: Ret,
}

/// A parameter: injected context or a decoded argument.
pub enum Param {
    Context,
    Arg(Box<Arg>),
}

/// An argument decoded from the request JSON.
pub struct Arg {
    pub json_name: String,
    pub ty: Type,
    pub decode: Decode,
    /// `None`: required unless it is an `Option`.
    pub default: Option<ArgDefault>,
    pub description: Option<String>,
    pub is_option: bool,
}

/// What a missing argument becomes.
pub enum ArgDefault {
    /// `#[arg(default)]`: `Default::default()`.
    Trait,
    /// `#[arg(default = expr)]`.
    Expr(Expr),
}

impl Arg {
    pub fn required(&self) -> bool {
        self.default.is_none() && !self.is_option
    }
}

/// How an argument is produced from its JSON value.
pub enum Decode {
    /// `T: Deserialize` (strings inside may still borrow, e.g. `Option<&str>`).
    Owned,
    /// `&str`: borrowed from the request.
    Str,
    /// `Cow<str>`: `Cow::Borrowed` from the request.
    CowStr,
    /// `&[T]`: a `Vec<T>` decoded into the frame, lent as a slice (its strings borrow).
    Slice(Type),
    /// `&T`: a `T` decoded into the frame, lent by reference.
    Ref(Type),
}

/// What the function returns. A type no tool can return (`impl Trait`, `!`) is kept as
/// `Infallible`, and `check_return_type` reports it.
pub enum Ret {
    Unit,
    Infallible(Type),
    Result(Type),
}

/// Where the function sits.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Site {
    Free,
    Method,
}

impl ToolFn {
    /// Reads the tool, removing `#[arg]` and doc attributes from the parameters (rustc rejects
    /// doc comments there) whether or not the tool is valid, so the emitted item compiles.
    pub fn from_syn(
        attr: ToolAttr,
        attrs: &[Attribute],
        sig: &mut Signature,
        site: Site,
        errors: &mut Errors,
    ) -> Self {
        let param_attrs = strip_param_attrs(sig, errors);
        let name = match &attr.name {
            Some(lit) => {
                let name = lit.value();
                if let Err(e) = util::check_tool_name(&name) {
                    errors.at(lit.span(), e);
                }
                name
            }
            None => sig.ident.to_string().trim_start_matches("r#").to_owned(),
        };
        let doc = util::doc_lines(attrs);
        let (doc_description, doc_args) = util::split_arguments_section(&doc);
        if attr.description.is_none() && doc_description.is_empty() {
            errors.spanned(
                &sig.ident,
                format!(
                    "tool `{name}` has no description, and a model reads it to decide when to call the tool; \
                     add a `///` line above the fn saying what it does (`#[tool(description = \"\")]` leaves it empty on purpose)"
                ),
            );
        }
        let description = attr
            .description
            .as_ref()
            .map_or(doc_description, syn::LitStr::value);
        let mut params = Vec::new();
        let typed = sig.inputs.iter().filter_map(|input| match input {
            FnArg::Typed(pt) => Some(pt),
            FnArg::Receiver(_) => None,
        });
        for (pt, (arg_attr, param_doc)) in typed.zip(param_attrs) {
            if let Some(param) = Self::param(pt, arg_attr, param_doc, &doc_args, errors) {
                params.push(param);
            }
        }
        Self {
            sig: sig.clone(),
            site,
            name,
            title: attr.title.as_ref().map(syn::LitStr::value),
            description,
            read_only: attr.read_only.map(|f| f.value),
            destructive: attr.destructive.map(|f| f.value),
            idempotent: attr.idempotent.map(|f| f.value),
            open_world: attr.open_world.map(|f| f.value),
            timeout: attr.timeout,
            tags: attr.tags.iter().flatten().map(syn::LitStr::value).collect(),
            scopes: attr.scopes.unwrap_or_default(),
            confirm: attr.confirm.is_some_and(|f| f.value),
            icon: attr.icon.as_ref().map(LitStr::value),
            task: attr.task,
            ttl: attr.ttl,
            poll: attr.poll,
            krate: attr.krate.map(|(k, _)| k).unwrap_or_default(),
            is_async: sig.asyncness.is_some(),
            params,
            ret: ret_of(&sig.output),
        }
    }

    fn param(
        pt: &syn::PatType,
        attr: ArgAttr,
        doc: Vec<String>,
        doc_args: &[(String, String)],
        errors: &mut Errors,
    ) -> Option<Param> {
        let binding = match &*pt.pat {
            Pat::Ident(p) if p.by_ref.is_none() && p.subpat.is_none() => p.ident.clone(),
            other => {
                errors.spanned(other, "unsupported parameter pattern in a #[tool] fn; write a name like `city: String` and destructure it in the body");
                return None;
            }
        };
        if let Some(context) = util::context_param(&pt.ty, errors) {
            if let Some((span, _)) = attr.default.as_ref().map(|(s, e)| (*s, e)) {
                errors.at(span, "the injected `&ToolContext` takes no #[arg] keys");
            }
            return context.then_some(Param::Context);
        }
        let rust_name = binding.to_string().trim_start_matches("r#").to_owned();
        let json_name = attr
            .rename
            .as_ref()
            .map_or_else(|| rust_name.clone(), syn::LitStr::value);
        if json_name.is_empty()
            && let Some(lit) = &attr.rename
        {
            errors.at(lit.span(), "an argument name cannot be empty");
        }
        let description = attr
            .description
            .as_ref()
            .map(syn::LitStr::value)
            .or_else(|| Some(util::join_doc(&doc)).filter(|d| !d.is_empty()))
            .or_else(|| {
                doc_args
                    .iter()
                    .find(|(n, _)| *n == rust_name || *n == json_name)
                    .map(|(_, d)| d.clone())
            });
        let ty = (*pt.ty).clone();
        Some(Param::Arg(Box::new(Arg {
            json_name,
            decode: decode_of(&ty),
            is_option: util::is_option(&ty),
            ty,
            default: attr
                .default
                .map(|(_, e)| e.map_or(ArgDefault::Trait, ArgDefault::Expr)),
            description,
        })))
    }
}

/// A `#[tools]` impl block: the `crate` path and its `#[tool]` methods, in order.
pub struct ToolsImpl {
    pub krate: CratePath,
    pub tools: Vec<ToolFn>,
}

impl ToolsImpl {
    /// Reads the `#[tool]` methods of `block`, removing their `#[tool]` attributes and the
    /// parameters' `#[arg]` and doc attributes (so the emitted block compiles either way).
    pub fn from_syn(args: TokenStream, block: &mut ItemImpl, errors: &mut Errors) -> Self {
        let krate = tools_args(args, errors);
        let mut tools = Vec::new();
        for impl_item in &mut block.items {
            let ImplItem::Fn(method) = impl_item else {
                continue;
            };
            let Some(pos) = method.attrs.iter().position(|a| a.path().is_ident("tool")) else {
                continue;
            };
            let tool_attr = method.attrs.remove(pos);
            if let Some(extra) = method.attrs.iter().find(|a| a.path().is_ident("tool")) {
                errors.spanned(
                    extra,
                    "duplicate #[tool] attribute; merge the keys into one",
                );
            }
            let mut attr = ToolAttr::from_attribute(&tool_attr, errors);
            if let Some((_, span)) = attr.krate.take() {
                errors.at(span, "set `crate = …` on #[tools], not on its methods");
            }
            attr.krate = Some((krate.clone(), Span::call_site()));
            if let Err(e) = method.modifiers.require_empty() {
                errors.push(e);
            }
            let site = Site::Method;
            tools.push(ToolFn::from_syn(
                attr,
                &method.attrs,
                &mut method.sig,
                site,
                errors,
            ));
        }
        Self { krate, tools }
    }
}

/// Removes `#[arg]` and `///` attributes from every parameter and parses them.
fn strip_param_attrs(sig: &mut Signature, errors: &mut Errors) -> Vec<(ArgAttr, Vec<String>)> {
    let mut out = Vec::new();
    for input in &mut sig.inputs {
        let attrs = match input {
            FnArg::Typed(pt) => &mut pt.attrs,
            FnArg::Receiver(r) => &mut r.attrs,
        };
        let mut arg = ArgAttr::default();
        let doc = util::doc_lines(attrs);
        attrs.retain(|a| {
            if a.path().is_ident("arg") {
                ArgAttr::parse(a, &mut arg, errors);
                false
            } else {
                !a.path().is_ident("doc")
            }
        });
        if matches!(input, FnArg::Typed(_)) {
            out.push((arg, doc));
        }
    }
    out
}

fn decode_of(ty: &Type) -> Decode {
    match ty {
        Type::Reference(r) if r.mutability.is_none() => match &*r.elem {
            Type::Path(p) if p.path.is_ident("str") => Decode::Str,
            Type::Slice(s) => Decode::Slice((*s.elem).clone()),
            other => Decode::Ref(other.clone()),
        },
        Type::Path(p) => {
            let Some(last) = p.path.segments.last() else {
                return Decode::Owned;
            };
            if last.ident == "Cow"
                && let PathArguments::AngleBracketed(args) = &last.arguments
                && args.args.iter().any(
                    |a| matches!(a, GenericArgument::Type(Type::Path(t)) if t.path.is_ident("str")),
                )
            {
                return Decode::CowStr;
            }
            Decode::Owned
        }
        _ => Decode::Owned,
    }
}

fn ret_of(output: &ReturnType) -> Ret {
    let ReturnType::Type(_, ty) = output else {
        return Ret::Unit;
    };
    match &**ty {
        Type::Tuple(t) if t.elems.is_empty() => Ret::Unit,
        // `Result`, `io::Result<T>`, `anyhow::Result<T>` and generic aliases named `…Result` are
        // results; their parts are read through `ResultParts`, so rustc checks the guess.
        Type::Path(p)
            if p.qself.is_none() && p.path.segments.last().is_some_and(is_result_segment) =>
        {
            Ret::Result((**ty).clone())
        }
        other => Ret::Infallible(other.clone()),
    }
}

fn is_result_segment(segment: &syn::PathSegment) -> bool {
    segment.ident == "Result"
        || (segment.ident.to_string().ends_with("Result") && !segment.arguments.is_empty())
}

impl ToolFn {
    pub fn ident(&self) -> &Ident {
        &self.sig.ident
    }

    pub fn timeout_ms(&self) -> Option<u64> {
        self.timeout.as_ref().map(|(ms, _)| *ms)
    }

    pub fn args(&self) -> impl Iterator<Item = &Arg> {
        self.params.iter().filter_map(|p| match p {
            Param::Arg(a) => Some(&**a),
            Param::Context => None,
        })
    }
}
