//! `toolset![a, b, path::c]`: a `ToolSet` of free-fn tools, duplicate names rejected at compile
//! time.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::parse::{Parse, ParseStream};
use syn::punctuated::Punctuated;
use syn::{Path, Token};

use crate::diag::Errors;
use crate::krate::CratePath;

struct Input {
    krate: CratePath,
    tools: Punctuated<Path, Token![,]>,
}

impl Parse for Input {
    fn parse(input: ParseStream<'_>) -> syn::Result<Self> {
        let krate = CratePath::parse_prefix(input)?;
        let tools = Punctuated::parse_terminated(input)?;
        Ok(Self { krate, tools })
    }
}

// Input:  toolset![add, math::divide]
// Output:
//     {
//         const _: () = assert_unique(<math::divide as Tool>::NAME, &[<add as Tool>::NAME]);
//         __private::tool_set(&[FnTool::of::<add>(), FnTool::of::<math::divide>()])
//     }
pub fn expand(input: TokenStream) -> TokenStream {
    let input: Input = match syn::parse2(input) {
        Ok(i) => i,
        Err(e) => return e.to_compile_error(),
    };
    let krate = &input.krate;
    let paths: Vec<&Path> = input.tools.iter().collect();
    let mut errors = Errors::default();
    let text = |p: &Path| quote!(#p).to_string();
    for (i, path) in paths.iter().enumerate() {
        if paths[..i].iter().any(|p| text(p) == text(path)) {
            errors.spanned(
                path,
                format!(
                    "`{}` is listed twice in toolset!; remove one",
                    text(path).replace(' ', "")
                ),
            );
        }
    }
    if let Err(e) = errors.finish() {
        let fallback = quote!(#krate::__private::tool_set(&[]));
        let error = e.to_compile_error();
        return quote!({ #error #fallback });
    }
    let checks = paths.iter().enumerate().skip(1).map(|(i, path)| {
        let earlier = &paths[..i];
        quote_spanned! {syn::spanned::Spanned::span(path)=>
            const _: () = if #krate::__private::contains_name(
                <#path as #krate::Tool>::NAME,
                &[#(<#earlier as #krate::Tool>::NAME),*],
            ) {
                ::core::panic!("this tool has the same name as an earlier one in toolset!; give one of them #[tool(name = \"…\")]")
            };
        }
    });
    let entries = paths.iter().map(
        |path| quote_spanned!(syn::spanned::Spanned::span(path)=> #krate::__private::FnTool::of::<#path>()),
    );
    quote! {{
        #(#checks)*
        #krate::__private::tool_set(&[#(#entries),*])
    }}
}
