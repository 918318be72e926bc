//! The items of one `#[prompt]`. Infallible; no validation here.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::ItemFn;

use super::parse::PromptAttr;
use crate::catalog_fn::{self, CatalogFn, Kind};

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
//         impl __rt::Prompt for greet { fn spec() …; fn get(args) …; fn complete(arg, value) … }
//         impl __rt::CatalogItem for greet { fn entry() … }
//     };
pub fn expand(attr: &PromptAttr, model: &CatalogFn, func: &ItemFn) -> TokenStream {
    let ident = &model.ident;
    let name = attr.name.as_ref().map_or_else(
        || ident.to_string().trim_start_matches("r#").to_owned(),
        syn::LitStr::value,
    );
    let title = catalog_fn::optional_string(attr.title.as_ref());
    let description = attr.description.as_ref().map_or_else(
        || model.description_tokens(),
        |d| catalog_fn::optional_string(Some(d)),
    );
    let arguments = model.params.iter().map(|p| {
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
    let call = model.call();
    let convert = quote_spanned!(model.ret_span=>
        __rt::IntoPromptResult::into_prompt_result(__executor_out)
    );
    let complete = model.complete();
    let body = quote! {
        #[automatically_derived]
        impl __rt::Prompt for #ident {
            fn spec() -> &'static __rt::PromptSpec {
                static SPEC: __rt::OnceLock<__rt::PromptSpec> = __rt::OnceLock::new();
                SPEC.get_or_init(|| __rt::PromptSpec {
                    name: __rt::String::from(#name),
                    title: #title,
                    description: #description,
                    arguments: __rt::vec![#(#arguments),*],
                    icons: #icons,
                })
            }

            fn get(
                __executor_args: &__rt::Map<__rt::String, __rt::Value>,
            ) -> __rt::BoxFuture<'_, __rt::Result<__rt::PromptResult, __rt::ToolFailure>> {
                __rt::Box::pin(async move {
                    #call
                    #convert
                })
            }

            #complete
        }
    };
    catalog_fn::items(func, &attr.krate(), Kind::Prompt, Some(&body))
}
