//! The items of one `#[prompt]` and of a `#[prompts]` block. Infallible; no validation here.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::{ItemFn, ItemImpl};

use super::parse::PromptAttr;
use crate::catalog_block;
use crate::catalog_fn::{self, CatalogFn, Kind};
use crate::krate::CratePath;

/// The prompt's name: `#[prompt(name)]` or the function's.
pub fn name(attr: &PromptAttr, model: &CatalogFn) -> String {
    attr.name.as_ref().map_or_else(
        || model.ident.to_string().trim_start_matches("r#").to_owned(),
        syn::LitStr::value,
    )
}

/// The `PromptSpec` expression: name, title, description, arguments, icons.
fn spec(attr: &PromptAttr, model: &CatalogFn) -> TokenStream {
    let name = name(attr, model);
    let title = catalog_fn::optional_string(attr.title.as_ref());
    let description = attr.description.as_ref().map_or_else(
        || model.description_tokens(),
        |d| catalog_fn::optional_string(Some(d)),
    );
    let arguments = model.args().map(|p| {
        let name = &p.name;
        let required = p.required;
        let description = catalog_fn::optional_string(p.description.as_ref());
        quote! {
            __rt::PromptArgument {
                name: __rt::String::from(#name),
                description: #description,
                required: #required,
            }
        }
    });
    let icons = catalog_fn::icons(attr.icon.as_ref());
    quote! {
        __rt::PromptSpec {
            name: __rt::String::from(#name),
            title: #title,
            description: #description,
            arguments: __rt::vec![#(#arguments),*],
            icons: #icons,
        }
    }
}

/// The call and its conversion, as a future's body.
fn body(model: &CatalogFn) -> TokenStream {
    let call = model.call();
    let convert = quote_spanned!(model.ret_span=>
        __rt::IntoPromptResult::into_prompt_result(__executor_out)
    );
    quote! {
        __rt::Box::pin(async move {
            #call
            #convert
        })
    }
}

// Input:
//     /// Greets someone.
//     #[prompt]
//     fn greet(/// Who.
//              name: String) -> PromptMessage { … }
// Output:
//     fn greet(name: String) -> PromptMessage { … }
//     pub struct greet {}
//     const _: () = {
//         use ::tool_executor::__private as __rt;
//         impl __rt::Prompt for greet { fn spec() …; fn get(args, ctx) …; fn complete(arg, value) … }
//         impl __rt::CatalogItem for greet { fn entry() … }
//     };
pub fn expand(attr: &PromptAttr, model: &CatalogFn, func: &ItemFn) -> TokenStream {
    let ident = &model.ident;
    let spec = spec(attr, model);
    let body = body(model);
    let complete = model.complete();
    let items = quote! {
        #[automatically_derived]
        impl __rt::Prompt for #ident {
            fn spec() -> &'static __rt::PromptSpec {
                static SPEC: __rt::OnceLock<__rt::PromptSpec> = __rt::OnceLock::new();
                SPEC.get_or_init(|| #spec)
            }

            fn get<'__executor>(
                __executor_args: &'__executor __rt::Map<__rt::String, __rt::Value>,
                __executor_ctx: &'__executor __rt::ToolContext,
            ) -> __rt::BoxFuture<'__executor, __rt::Result<__rt::PromptResult, __rt::ToolFailure>> {
                #body
            }

            #complete
        }
    };
    catalog_fn::items(func, &attr.krate(), Kind::Prompt, Some(&items))
}

// Input:
//     #[prompts]
//     impl Library {
//         /// Greets.
//         #[prompt] fn greet(&self, name: String) -> String { … }
//     }
// Output:
//     impl Library { fn greet(&self, name: String) -> String { … } }
//     const _: () = {
//         use ::tool_executor::__private as __rt;
//         impl __rt::Prompts for Library {
//             fn prompt_specs(&self) … { vec![PromptSpec { … }] }
//             fn get_prompt(&self, index, args, ctx) … { match index { 0 => Box::pin(…self.greet(…)…), … } }
//             fn complete_prompt(&self, index, argument, value) … { match index { … } }
//         }
//     };
pub fn expand_block(
    block: &ItemImpl,
    krate: &CratePath,
    methods: &[catalog_block::Read<'_, PromptAttr>],
) -> TokenStream {
    let specs = methods.iter().map(|(attr, model)| spec(attr, model));
    let gets = methods.iter().enumerate().map(|(i, (_, model))| {
        let body = body(model);
        quote!(#i => #body,)
    });
    let complete = catalog_block::complete_by_index("complete_prompt", methods.iter().map(|m| m.1));
    let items = quote! {
        fn prompt_specs(&self) -> __rt::Vec<__rt::PromptSpec> {
            __rt::vec![#(#specs),*]
        }

        fn get_prompt<'__executor>(
            &'__executor self,
            __executor_index: usize,
            __executor_args: &'__executor __rt::Map<__rt::String, __rt::Value>,
            __executor_ctx: &'__executor __rt::ToolContext,
        ) -> __rt::BoxFuture<'__executor, __rt::Result<__rt::PromptResult, __rt::ToolFailure>> {
            match __executor_index {
                #(#gets)*
                _ => __rt::unknown_entry(__executor_index),
            }
        }

        #complete
    };
    catalog_block::block_impl(block, krate, "Prompts", &items)
}

// Input:  #[prompts] impl Library { #[prompt] fn greet(self) -> String { … } }
// Output: impl Library { fn greet(self) -> String { … } }
//         const _: () = { impl __rt::Prompts for Library { /* `unreachable!()` */ } };
/// What `#[prompts]` emits next to its errors, so `catalog.with_prompts(value)` elsewhere
/// adds no second error.
pub fn fallback_block(block: &ItemImpl, krate: &CratePath) -> TokenStream {
    let items = quote! {
        fn prompt_specs(&self) -> __rt::Vec<__rt::PromptSpec> {
            ::core::unreachable!()
        }

        fn get_prompt<'__executor>(
            &'__executor self,
            _: usize,
            _: &'__executor __rt::Map<__rt::String, __rt::Value>,
            _: &'__executor __rt::ToolContext,
        ) -> __rt::BoxFuture<'__executor, __rt::Result<__rt::PromptResult, __rt::ToolFailure>> {
            ::core::unreachable!()
        }
    };
    catalog_block::block_impl(block, krate, "Prompts", &items)
}
