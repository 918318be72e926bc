//! The items of one `#[resource]`. Infallible; no validation here.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::ItemFn;

use super::parse::ResourceAttr;
use crate::catalog_fn::{self, CatalogFn, Kind};

// Input:
//     /// A note.
//     #[resource(template = "notes://{id}", mime_type = "text/plain")]
//     fn note(id: u32) -> String { … }
// Output:
//     fn note(id: u32) -> String { … }
//     pub struct note {}
//     const _: () = {
//         use ::tool_executor::__private as __rt;
//         impl __rt::Resource for note { fn spec() …; fn read(uri, vars) …; fn complete(…) … }
//         impl __rt::CatalogItem for note { fn entry() … }
//     };
pub fn expand(
    attr: &ResourceAttr,
    model: &CatalogFn,
    func: &ItemFn,
    template: bool,
) -> TokenStream {
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
    let mime_type = catalog_fn::optional_string(attr.mime_type.as_ref());
    let mime_arg = attr
        .mime_type
        .as_ref()
        .map_or_else(|| quote!(__rt::None), |m| quote!(__rt::Some(#m)));
    let uri = match (template, &attr.template, &attr.uri) {
        (true, Some(t), _) => quote!(__rt::template(#t)),
        (_, _, Some(u)) => quote!(__rt::ResourceUri::Fixed(__rt::String::from(#u))),
        _ => quote!(::core::unreachable!()),
    };
    let icons = catalog_fn::icons(attr.icon.as_ref());
    let call = model.call();
    let convert = quote_spanned!(model.ret_span=>
        __rt::IntoContents::into_contents(__executor_out, __executor_uri, #mime_arg)
    );
    let complete = model.complete();
    let body = quote! {
        #[automatically_derived]
        impl __rt::Resource for #ident {
            fn spec() -> &'static __rt::ResourceSpec {
                static SPEC: __rt::OnceLock<__rt::ResourceSpec> = __rt::OnceLock::new();
                SPEC.get_or_init(|| __rt::ResourceSpec {
                    uri: #uri,
                    name: __rt::String::from(#name),
                    title: #title,
                    description: #description,
                    mime_type: #mime_type,
                    icons: #icons,
                })
            }

            fn read<'__executor>(
                __executor_uri: &'__executor str,
                __executor_args: &'__executor __rt::Map<__rt::String, __rt::Value>,
            ) -> __rt::BoxFuture<'__executor, __rt::Result<__rt::Vec<__rt::ResourceContents>, __rt::ToolFailure>> {
                __rt::Box::pin(async move {
                    let _ = __executor_args;
                    #call
                    #convert
                })
            }

            #complete
        }
    };
    catalog_fn::items(func, &attr.krate(), Kind::Resource, Some(&body))
}
