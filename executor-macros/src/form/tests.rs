//! Expansion snapshots of `#[derive(Form)]` (see `crate::snapshot`), and the one-pass error
//! report.

use quote::quote;

use crate::snapshot::assert_expansion;

/// Expansion snapshots (`UPDATE_EXPECT=1` rewrites them); read them when the output changes.
#[test]
fn snapshot_form() {
    let out = super::derive_form(quote! {
        struct Order {
            /// Who the order is for.
            #[form(title = "Name", min_length = 1, max_length = 80)]
            r#name: String,
            #[form(min = 1, max = 10, default = 1)]
            quantity: u8,
            sizes: Vec<Size>,
        }
    });
    assert_expansion("form_struct", out);
}

#[test]
fn snapshot_choice() {
    let out = super::derive_form(quote! {
        #[form(crate = ::renamed::tool_executor)]
        enum Size {
            /// Small.
            S,
            #[form(value = "l", title = "Large")]
            L,
        }
    });
    assert_expansion("form_choice", out);
}

#[test]
fn snapshot_fallback() {
    let out = super::derive_form(quote! {
        struct Login { user: String, password: String }
    });
    assert_expansion("form_fallback", out);
}

/// Every bad attribute and field in one pass, not only the first.
#[test]
fn every_mistake_is_reported_at_once() {
    let out = super::derive_form(quote! {
        struct Bad {
            #[form(min_lenght = 1)]
            a: String,
            api_key: String,
            #[form(format = "phone")]
            b: String,
        }
    })
    .to_string();
    assert!(
        out.contains("unknown #[form] key `min_lenght`; did you mean `min_length`?"),
        "{out}"
    );
    assert!(out.contains("`api_key` looks like a secret"), "{out}");
    assert!(out.contains("unknown format `phone`"), "{out}");
}
