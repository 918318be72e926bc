//! What `#[prompts]` and `#[resources]` share: an inherent `impl` block whose `#[prompt]` (or
//! `#[resource]`) methods take `&self`. The block is read into its marked methods (attribute
//! arguments and function model each), checked (an inherent block, at least one method,
//! `crate = …` on the block only), and emitted with `impl Prompts` (or `Resources`) for its
//! type; on error, with a stand-in impl whose bodies never run.

use proc_macro2::{Span, TokenStream};
use quote::{ToTokens, quote};
use syn::{ImplItem, ItemImpl, Meta};

use crate::attr::{self, Keys, set_once};
use crate::catalog_fn::{CatalogFn, Site};
use crate::diag::{self, Errors, Fallback};
use crate::krate::CratePath;
use crate::util;

/// Which block macro.
pub struct BlockKind {
    /// The method attribute's name: `prompt`.
    pub method: &'static str,
    /// How the method attribute reads: `#[prompt]`.
    pub what: &'static str,
    /// How the block attribute reads: `#[prompts]`.
    pub block: &'static str,
    /// The block attribute's keys.
    pub keys: Keys,
}

/// One marked method: its attribute's arguments (and the attribute, for spans) and its model.
pub struct BlockMethod {
    pub args: TokenStream,
    pub attr: syn::Attribute,
    pub model: CatalogFn,
}

/// One method read by a block macro: its attribute `A` and its function.
pub type Read<'m, A> = (A, &'m CatalogFn);

/// What a block macro does beside the shared steps.
pub struct BlockSteps<A> {
    /// Parses and checks one method's attribute; with whether it set `crate = …`.
    pub method: fn(&BlockMethod, &mut Errors) -> (A, bool),
    /// The rules across the methods.
    pub across: fn(&[BlockMethod], &[Read<'_, A>], &mut Errors),
    /// The block and its trait impl.
    pub expand: fn(&ItemImpl, &CratePath, &[Read<'_, A>]) -> TokenStream,
    /// The block and a stand-in trait impl, for after an error.
    pub fallback: fn(&ItemImpl, &CratePath) -> TokenStream,
}

/// `#[prompts]` or `#[resources]`: the block read, its methods checked by `steps`, expanded
/// (or, on error, the fallback and every error).
pub fn block_macro<A>(
    args: TokenStream,
    input: TokenStream,
    kind: &BlockKind,
    steps: &BlockSteps<A>,
) -> TokenStream {
    diag::handle_errors(Fallback::Items(input.clone()), |on_error| {
        let item: syn::Item = syn::parse2(input)?;
        let syn::Item::Impl(mut block) = item else {
            return Err(syn::Error::new_spanned(
                diag::item_keyword(&item),
                format!(
                    "{} goes on an inherent `impl` block whose methods are marked {}; for a free function write {}",
                    kind.block, kind.what, kind.what
                ),
            ));
        };
        let mut errors = Errors::default();
        let krate = block_args(args, kind, &mut errors);
        let methods = read_block(&mut block, kind, &mut errors);
        *on_error = Fallback::Items((steps.fallback)(&block, &krate));
        check_block(&block, &methods, kind, &mut errors);
        let mut read = Vec::new();
        for method in &methods {
            let (attr, has_crate) = (steps.method)(method, &mut errors);
            check_crate(method, has_crate, kind, &mut errors);
            read.push((attr, &method.model));
        }
        (steps.across)(&methods, &read, &mut errors);
        errors.finish()?;
        Ok((steps.expand)(&block, &krate, &read))
    })
}

/// `match __executor_index { i => <the method's completion match>, … }` as the body of
/// `name(&self, index, argument, value)`; nothing (the trait's default) when no method
/// completes anything.
pub fn complete_by_index<'m>(
    name: &str,
    models: impl Iterator<Item = &'m CatalogFn>,
) -> Option<TokenStream> {
    let arms: Vec<TokenStream> = models
        .enumerate()
        .filter_map(|(i, model)| {
            let body = model.complete_match()?;
            Some(quote!(#i => #body,))
        })
        .collect();
    if arms.is_empty() {
        return None;
    }
    let name = syn::Ident::new(name, Span::call_site());
    Some(quote! {
        fn #name(
            &self,
            __executor_index: usize,
            __executor_argument: &str,
            __executor_value: &str,
        ) -> __rt::Vec<__rt::String> {
            match __executor_index {
                #(#arms)*
                _ => __rt::Vec::new(),
            }
        }
    })
}

/// `#[prompts(crate = path)]`.
fn block_args(args: TokenStream, kind: &BlockKind, errors: &mut Errors) -> CratePath {
    let mut krate = None;
    attr::parse_args(args, errors, |meta, _| {
        if meta.path.is_ident("crate") {
            set_once(&mut krate, meta, |m| CratePath::parse_value(m.value()?))
        } else {
            Err(kind.keys.error(meta))
        }
    });
    krate.unwrap_or_default()
}

/// The marked methods of `block`, in order, their marks and their parameters' `#[arg]` and
/// doc attributes removed (so the emitted block compiles either way).
fn read_block(block: &mut ItemImpl, kind: &BlockKind, errors: &mut Errors) -> Vec<BlockMethod> {
    let mut methods = Vec::new();
    for item in &mut block.items {
        let ImplItem::Fn(method) = item else { continue };
        let Some(pos) = method
            .attrs
            .iter()
            .position(|a| a.path().is_ident(kind.method))
        else {
            continue;
        };
        let mark = method.attrs.remove(pos);
        if let Some(extra) = method.attrs.iter().find(|a| a.path().is_ident(kind.method)) {
            errors.spanned(
                extra,
                format!("duplicate {} attribute; merge the keys into one", kind.what),
            );
        }
        let args = match &mark.meta {
            Meta::Path(_) => TokenStream::new(),
            Meta::List(list) => list.tokens.clone(),
            Meta::NameValue(nv) => {
                errors.spanned(
                    &nv.value,
                    format!("write {}(key = value, …), not {} = …", kind.what, kind.what),
                );
                TokenStream::new()
            }
        };
        if let Err(e) = method.modifiers.require_empty() {
            errors.push(e);
        }
        let model = CatalogFn::from_syn(
            &method.attrs,
            &mut method.sig,
            Site::Method,
            (kind.what, kind.block),
            errors,
        );
        methods.push(BlockMethod {
            args,
            attr: mark,
            model,
        });
    }
    methods
}

/// A block macro implements its trait for the block's type from the block's own methods: a
/// trait impl has none of its own; a block without marked methods is a forgotten mark.
fn check_block(block: &ItemImpl, methods: &[BlockMethod], kind: &BlockKind, errors: &mut Errors) {
    if let Some((path, _)) = &block.trait_ {
        errors.spanned(
            path,
            format!(
                "{} goes on an inherent `impl Type` block, not a trait impl",
                kind.block
            ),
        );
    } else if methods.is_empty() {
        errors.spanned(
            &block.self_ty,
            format!(
                "{} found no {} method; mark the methods to serve with {}",
                kind.block, kind.what, kind.what
            ),
        );
    }
}

/// A method's own `crate = …`: the block's is the one path its expansion uses.
fn check_crate(method: &BlockMethod, has_crate: bool, kind: &BlockKind, errors: &mut Errors) {
    if has_crate {
        errors.spanned(
            &method.attr,
            format!("set `crate = …` on {}, not on its methods", kind.block),
        );
    }
}

/// Two methods of one block cannot share a name (`name` of each method, in order).
pub fn check_unique(
    methods: &[BlockMethod],
    names: &[String],
    kind: &BlockKind,
    errors: &mut Errors,
) {
    for (i, name) in names.iter().enumerate() {
        if names[..i].contains(name) {
            errors.spanned(
                &methods[i].model.ident,
                format!(
                    "two {} methods are named `{name}`; give one another #[{}(name = \"…\")]",
                    kind.what, kind.method
                ),
            );
        }
    }
}

/// The user's block, then `impl <trait_name> for` its type with `items` (see
/// `util::impl_for_block`); a trait impl (rejected) is emitted alone.
pub fn block_impl(
    block: &ItemImpl,
    krate: &CratePath,
    trait_name: &str,
    items: &TokenStream,
) -> TokenStream {
    if block.trait_.is_some() {
        return block.to_token_stream();
    }
    let trait_ident = syn::Ident::new(trait_name, Span::call_site());
    util::impl_for_block(block, &krate.runtime(), &trait_ident, items)
}
