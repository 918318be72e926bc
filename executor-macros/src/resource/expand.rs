//! The items of one `#[resource]` and of a `#[resources]` block. Infallible; no validation
//! here.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::{ItemFn, ItemImpl};

use super::parse::ResourceAttr;
use crate::catalog_block;
use crate::catalog_fn::{self, CatalogFn, Kind};
use crate::krate::CratePath;

/// The resource's name: `#[resource(name)]` or the function's.
fn name(attr: &ResourceAttr, model: &CatalogFn) -> String {
    attr.name.as_ref().map_or_else(
        || model.ident.to_string().trim_start_matches("r#").to_owned(),
        syn::LitStr::value,
    )
}

/// The `ResourceSpec` expression; `template` when the checks found a valid template.
fn spec(attr: &ResourceAttr, model: &CatalogFn, template: bool) -> TokenStream {
    let name = name(attr, model);
    let title = catalog_fn::optional_string(attr.title.as_ref());
    let description = attr.description.as_ref().map_or_else(
        || model.description_tokens(),
        |d| catalog_fn::optional_string(Some(d)),
    );
    let mime_type = catalog_fn::optional_string(attr.mime_type.as_ref());
    let uri = match (template, &attr.template, &attr.uri) {
        (true, Some(t), _) => quote!(__rt::template(#t)),
        (_, _, Some(u)) => quote!(__rt::ResourceUri::Fixed(__rt::String::from(#u))),
        _ => quote!(::core::unreachable!()),
    };
    let icons = catalog_fn::icons(attr.icon.as_ref());
    quote! {
        __rt::ResourceSpec {
            uri: #uri,
            name: __rt::String::from(#name),
            title: #title,
            description: #description,
            mime_type: #mime_type,
            icons: #icons,
        }
    }
}

/// The call and its conversion into contents, as a future's body.
fn body(attr: &ResourceAttr, model: &CatalogFn) -> TokenStream {
    let mime_arg = attr
        .mime_type
        .as_ref()
        .map_or_else(|| quote!(__rt::None), |m| quote!(__rt::Some(#m)));
    let call = model.call();
    let convert = quote_spanned!(model.ret_span=>
        __rt::IntoContents::into_contents(__executor_out, __executor_uri, #mime_arg)
    );
    quote! {
        __rt::Box::pin(async move {
            #call
            #convert
        })
    }
}

// Input:
//     /// A note.
//     #[resource(template = "notes://{id}", mime_type = "text/plain")]
//     fn note(id: u32) -> String { … }
// Output:
//     fn note(id: u32) -> String { … }
//     pub struct note {}
//     const _: () = {
//         use ::tool_executor::__private as __rt;
//         impl __rt::Resource for note { fn spec() …; fn read(uri, vars, ctx) …; fn complete(…) … }
//         impl __rt::CatalogItem for note { fn entry() … }
//     };
pub fn expand(
    attr: &ResourceAttr,
    model: &CatalogFn,
    func: &ItemFn,
    template: bool,
) -> TokenStream {
    let ident = &model.ident;
    let spec = spec(attr, model, template);
    let body = body(attr, model);
    let complete = model.complete();
    let items = quote! {
        #[automatically_derived]
        impl __rt::Resource for #ident {
            fn spec() -> &'static __rt::ResourceSpec {
                static SPEC: __rt::OnceLock<__rt::ResourceSpec> = __rt::OnceLock::new();
                SPEC.get_or_init(|| #spec)
            }

            fn read<'__executor>(
                __executor_uri: &'__executor str,
                __executor_args: &'__executor __rt::Map<__rt::String, __rt::Value>,
                __executor_ctx: &'__executor __rt::ToolContext,
            ) -> __rt::BoxFuture<'__executor, __rt::Result<__rt::Vec<__rt::ResourceContents>, __rt::ToolFailure>> {
                #body
            }

            #complete
        }
    };
    catalog_fn::items(func, &attr.krate(), Kind::Resource, Some(&items))
}

// Input:
//     #[resources]
//     impl Library {
//         /// A note.
//         #[resource(template = "notes://{id}")] fn note(&self, id: u32) -> String { … }
//     }
// Output:
//     impl Library { fn note(&self, id: u32) -> String { … } }
//     const _: () = {
//         use ::tool_executor::__private as __rt;
//         impl __rt::Resources for Library {
//             fn resource_specs(&self) … { vec![ResourceSpec { … }] }
//             fn read_resource(&self, index, uri, vars, ctx) … { match index { 0 => Box::pin(…self.note(…)…), … } }
//             fn complete_resource(&self, index, variable, value) … { match index { … } }
//         }
//     };
pub fn expand_block(
    block: &ItemImpl,
    krate: &CratePath,
    methods: &[catalog_block::Read<'_, (ResourceAttr, bool)>],
) -> TokenStream {
    let specs = methods
        .iter()
        .map(|((attr, template), model)| spec(attr, model, *template));
    let reads = methods.iter().enumerate().map(|(i, ((attr, _), model))| {
        let body = body(attr, model);
        quote!(#i => #body,)
    });
    let complete =
        catalog_block::complete_by_index("complete_resource", methods.iter().map(|m| m.1));
    let items = quote! {
        fn resource_specs(&self) -> __rt::Vec<__rt::ResourceSpec> {
            __rt::vec![#(#specs),*]
        }

        fn read_resource<'__executor>(
            &'__executor self,
            __executor_index: usize,
            __executor_uri: &'__executor str,
            __executor_args: &'__executor __rt::Map<__rt::String, __rt::Value>,
            __executor_ctx: &'__executor __rt::ToolContext,
        ) -> __rt::BoxFuture<'__executor, __rt::Result<__rt::Vec<__rt::ResourceContents>, __rt::ToolFailure>> {
            match __executor_index {
                #(#reads)*
                _ => __rt::unknown_entry(__executor_index),
            }
        }

        #complete
    };
    catalog_block::block_impl(block, krate, "Resources", &items)
}

// Input:  #[resources] impl Library { #[resource(uri = "a://b")] fn b(self) -> String { … } }
// Output: impl Library { fn b(self) -> String { … } }
//         const _: () = { impl __rt::Resources for Library { /* `unreachable!()` */ } };
/// What `#[resources]` emits next to its errors, so `catalog.with_resources(value)` elsewhere
/// adds no second error.
pub fn fallback_block(block: &ItemImpl, krate: &CratePath) -> TokenStream {
    let items = quote! {
        fn resource_specs(&self) -> __rt::Vec<__rt::ResourceSpec> {
            ::core::unreachable!()
        }

        fn read_resource<'__executor>(
            &'__executor self,
            _: usize,
            _: &'__executor str,
            _: &'__executor __rt::Map<__rt::String, __rt::Value>,
            _: &'__executor __rt::ToolContext,
        ) -> __rt::BoxFuture<'__executor, __rt::Result<__rt::Vec<__rt::ResourceContents>, __rt::ToolFailure>> {
            ::core::unreachable!()
        }
    };
    catalog_block::block_impl(block, krate, "Resources", &items)
}
