//! `#[tools]` on an inherent impl block: its `#[tool]` methods make the type a `ToolExecutor`.

use proc_macro2::TokenStream;
use quote::{ToTokens, quote};
use syn::{ImplItem, Item};

use crate::diag::{self, Errors};
use crate::krate::CratePath;
use crate::tool::model::{Site, ToolFn};
use crate::tool::parse::ToolAttr;
use crate::tool::{call_body, ctx_ident, params_ident, spec};

pub fn expand(args: TokenStream, input: TokenStream) -> TokenStream {
    let item: Item = match syn::parse2(input.clone()) {
        Ok(item) => item,
        Err(e) => return diag::with_item(input, &e),
    };
    let Item::Impl(mut block) = item else {
        let e = syn::Error::new_spanned(
            &item,
            "#[tools] goes on an inherent `impl` block whose methods are marked #[tool]; for a free function write #[tool]",
        );
        return diag::with_item(item, &e);
    };
    let mut errors = Errors::default();
    let krate = parse_args(args, &mut errors);
    if let Some((path, _)) = &block.trait_ {
        errors.spanned(
            path,
            "#[tools] goes on an inherent `impl Type` block, not a trait impl",
        );
    }
    let mut models = Vec::new();
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
        let mut attr = ToolAttr::from_attribute(&tool_attr, &mut errors);
        if let Some(path) = attr.krate.take() {
            errors.spanned(
                &tool_attr,
                "set `crate = …` on #[tools], not on its methods",
            );
            drop(path);
        }
        attr.krate = Some(krate.clone());
        if let Err(e) = method.modifiers.require_empty() {
            errors.push(e);
        }
        if let Some(model) = ToolFn::from_syn(
            attr,
            &method.attrs,
            &mut method.sig,
            Site::Method,
            &mut errors,
        ) {
            models.push(model);
        }
    }
    check_unique(&models, &mut errors);
    if models.is_empty() && block.trait_.is_none() {
        errors.spanned(
            &block.self_ty,
            "#[tools] found no #[tool] method; mark the methods to serve with #[tool]",
        );
    }
    match errors.finish() {
        Ok(()) => expand_impl(&krate, &block, &models),
        Err(e) => diag::with_item(&block, &e),
    }
}

fn parse_args(args: TokenStream, errors: &mut Errors) -> CratePath {
    let mut krate = None;
    let parser = syn::meta::parser(|meta| {
        if meta.path.is_ident("crate") {
            if krate.is_some() {
                return Err(meta.error("duplicate `crate` key; write it once"));
            }
            krate = Some(CratePath::parse_value(meta.value()?)?);
            Ok(())
        } else {
            Err(meta
                .error("unknown #[tools] key; the only key is `crate = ::path::to::executor_core`"))
        }
    });
    if let Err(e) = syn::parse::Parser::parse2(parser, args) {
        errors.push(e);
    }
    krate.unwrap_or_default()
}

fn check_unique(models: &[ToolFn], errors: &mut Errors) {
    for (i, model) in models.iter().enumerate() {
        if models[..i].iter().any(|m| m.name == model.name) {
            errors.spanned(
                &model.ident,
                format!(
                    "two #[tool] methods are named `{}`; give one another #[tool(name = \"…\")]",
                    model.name
                ),
            );
        }
    }
}

// Input:
//     #[tools] impl Counter { #[tool] async fn hit(&self, by: u64) -> u64 { … } }
// Output:
//     impl Counter { async fn hit(&self, by: u64) -> u64 { … } }
//     const _: () = { impl ContextExecutor for Counter {
//         fn call(&self, tool, params, ctx) { match tool { "hit" => Box::pin(…self.hit(…)…), _ => unserved(None, …) } }
//         fn stream(…) { (&StreamProbe(self)).stream(…) }
//         fn list_specs(&self) -> SpecList { static SPECS … }
//     } };
// (the blanket `impl ToolExecutor for T: ContextExecutor` provides every seed method)
fn expand_impl(krate: &CratePath, block: &syn::ItemImpl, models: &[ToolFn]) -> TokenStream {
    let (impl_generics, _, where_clause) = block.generics.split_for_impl();
    let self_ty = &block.self_ty;
    let params = params_ident();
    let ctx = ctx_ident();
    let names: Vec<&str> = models.iter().map(|m| m.name.as_str()).collect();
    let bodies = models.iter().map(|m| call_body(m, Some(quote!(self))));
    let specs = models.iter().map(spec);
    let generic = block.generics.type_params().next().is_some()
        || block.generics.const_params().next().is_some();
    // A `static` inside a generic impl is shared by every instantiation, so generic executors
    // build their list on each call instead.
    let spec_list = if generic {
        quote!(#krate::__private::Arc::from(::std::vec![#(#krate::__private::Arc::new(#specs)),*]))
    } else {
        quote! {
            static SPECS: #krate::__private::OnceLock<#krate::SpecList> = #krate::__private::OnceLock::new();
            #krate::__private::Arc::clone(SPECS.get_or_init(|| {
                #krate::__private::Arc::from(::std::vec![#(#krate::__private::Arc::new(#specs)),*])
            }))
        }
    };
    quote! {
        #block

        const _: () = {
            #[automatically_derived]
            #[allow(unused_qualifications)] // generated paths are absolute on purpose
            impl #impl_generics #krate::ContextExecutor for #self_ty #where_clause {
                fn call<'__executor>(
                    &'__executor self,
                    __executor_tool: &'__executor str,
                    #params: &'__executor #krate::__private::Value,
                    #ctx: #krate::ToolContext,
                ) -> #krate::BoxFuture<'__executor, ::core::result::Result<#krate::ToolExecution, #krate::ToolFailure>> {
                    match __executor_tool {
                        #(#names => #krate::__private::Box::pin(#bodies),)*
                        _ => #krate::__private::unserved(::core::option::Option::None, __executor_tool, #params, #ctx),
                    }
                }

                fn stream<'__executor>(
                    &'__executor self,
                    tool: &'__executor str,
                    params: &'__executor #krate::__private::Value,
                    action_id: &'__executor str,
                ) -> #krate::BoxFuture<
                    '__executor,
                    ::core::result::Result<#krate::__private::Receiver<#krate::ToolStreamChunk>, ::std::string::String>,
                > {
                    #[allow(unused_imports)] // one of the two is picked by autoref specialization
                    use #krate::__private::{StreamByClone as _, StreamUnsupported as _};
                    (&#krate::__private::StreamProbe(self)).stream(tool, params, action_id)
                }

                fn list_specs(&self) -> #krate::SpecList {
                    #spec_list
                }
            }
        };
    }
    .into_token_stream()
}
