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

#[test]
fn prompts_block() {
    let out = super::prompts(
        quote!(),
        quote! {
            impl Library {
                /// Recommends a book.
                #[prompt(title = "Recommend")]
                async fn recommend(
                    &self,
                    /// The genre.
                    #[arg(complete = genres)]
                    genre: String,
                    ctx: &ToolContext,
                ) -> String { todo!() }

                /// Lists the shelf.
                #[prompt(name = "shelf")]
                fn list_shelf(&self) -> PromptMessage { todo!() }

                fn other(&self) {}
            }
        },
    );
    assert_expansion("prompts_block", out);
}

#[test]
fn resources_block() {
    let out = crate::resource::resources(
        quote!(),
        quote! {
            impl<S: Store> Library<S> {
                /// One book.
                #[resource(template = "library://books/{id}", mime_type = "text/plain")]
                fn book(&self, id: u32, ctx: &ToolContext) -> String { todo!() }
            }
        },
    );
    assert_expansion("resources_block", out);
}
