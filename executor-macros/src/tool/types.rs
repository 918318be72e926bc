//! Types as generated code names them (lifetimes erased) and as messages show them.

use proc_macro2::{Delimiter, Group, Ident, Spacing, Span, TokenStream, TokenTree};
use quote::quote;
use syn::Type;

/// The span to blame for a type problem.
pub fn span_of(ty: &Type) -> Span {
    syn::spanned::Spanned::span(ty)
}

/// Replaces named lifetimes with `'_` so a parameter type can be named inside generated fns
/// (where the user's lifetime parameters are not in scope). `'static` stays.
pub fn erase_lifetimes(ty: &Type) -> TokenStream {
    erase_in(quote!(#ty))
}

fn erase_in(tokens: TokenStream) -> TokenStream {
    let mut out = Vec::new();
    let mut after_quote = false;
    for tt in tokens {
        match tt {
            TokenTree::Punct(p) if p.as_char() == '\'' && p.spacing() == Spacing::Joint => {
                after_quote = true;
                out.push(TokenTree::Punct(p));
            }
            TokenTree::Ident(id) if after_quote => {
                after_quote = false;
                if id == "static" {
                    out.push(TokenTree::Ident(id));
                } else {
                    out.push(TokenTree::Ident(Ident::new("_", id.span())));
                }
            }
            TokenTree::Group(g) => {
                after_quote = false;
                let mut ng = Group::new(g.delimiter(), erase_in(g.stream()));
                ng.set_span(g.span());
                out.push(TokenTree::Group(ng));
            }
            other => {
                after_quote = false;
                out.push(other);
            }
        }
    }
    out.into_iter().collect()
}

/// The type as a reader writes it, lifetimes dropped: `&str`, `Vec<String>`, `Option<u32>`.
pub fn type_text(ty: &Type) -> String {
    let mut text = String::new();
    write_tokens(quote!(#ty), &mut text);
    text
}

fn write_tokens(tokens: TokenStream, out: &mut String) {
    let mut skip_ident = false;
    let mut last_ident = false;
    for tt in tokens {
        match tt {
            TokenTree::Punct(p) if p.as_char() == '\'' => skip_ident = true,
            TokenTree::Ident(_) if skip_ident => {
                skip_ident = false;
                last_ident = false;
            }
            TokenTree::Ident(id) => {
                if last_ident {
                    out.push(' ');
                }
                out.push_str(&id.to_string());
                last_ident = true;
            }
            TokenTree::Punct(p) => {
                out.push(p.as_char());
                if p.as_char() == ',' {
                    out.push(' ');
                }
                last_ident = false;
            }
            TokenTree::Group(g) => {
                let (open, close) = match g.delimiter() {
                    Delimiter::Parenthesis => ("(", ")"),
                    Delimiter::Bracket => ("[", "]"),
                    Delimiter::Brace => ("{", "}"),
                    Delimiter::None => ("", ""),
                };
                out.push_str(open);
                write_tokens(g.stream(), out);
                out.push_str(close);
                last_ident = false;
            }
            TokenTree::Literal(l) => {
                out.push_str(&l.to_string());
                last_ident = false;
            }
        }
    }
}
