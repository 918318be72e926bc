//! The one expansion-snapshot convention: each macro's `tests.rs` expands a case with
//! `quote!`, and `assert_expansion("<macro>_<case>", tokens)` compares the pretty-printed
//! expansion with `executor-macros/tests/snapshots/<macro>_<case>.rs`.
//! `UPDATE_EXPECT=1 cargo test -p tool-executor-macros` rewrites them; review the diff.

use proc_macro2::TokenStream;

/// The expansion as `cargo expand` would show it.
pub fn pretty(tokens: TokenStream) -> String {
    let file: syn::File = syn::parse2(tokens).expect("the expansion parses as a file");
    prettyplease::unparse(&file)
}

/// Compares `tokens`, pretty-printed, with `tests/snapshots/{case}.rs`.
pub fn assert_expansion(case: &str, tokens: TokenStream) {
    expect_test::expect_file![format!("../tests/snapshots/{case}.rs")].assert_eq(&pretty(tokens));
}
