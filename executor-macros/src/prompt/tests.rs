//! Expansion snapshots of `#[prompt]` and `#[resource]` (see `crate::snapshot`).

use quote::quote;

use crate::snapshot::assert_expansion;

#[test]
fn prompt_with_arguments() {
    let out = super::prompt(
        quote!(
            title = "Code review",
            icon = "https://example.com/review.png"
        ),
        quote! {
            /// Asks for a review.
            async fn review(
                /// The code.
                code: &str,
                #[arg(rename = "lang", complete = languages)] language: Option<String>,
            ) -> Vec<PromptMessage> { todo!() }
        },
    );
    assert_expansion("prompt_review", out);
}

#[test]
fn resource_template() {
    let out = crate::resource::resource(
        quote!(template = "notes://{user}/{id}", mime_type = "text/plain"),
        quote! {
            /// A user's note.
            fn note(user: String, id: u64) -> Result<String, NoteError> { todo!() }
        },
    );
    assert_expansion("resource_note", out);
}

#[test]
fn prompt_error_keeps_the_function() {
    let out = super::prompt(
        quote!(),
        quote! {
            fn undocumented(name: String) -> String { name }
        },
    );
    assert_expansion("prompt_fallback", out);
}
