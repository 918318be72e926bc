//! What an MCP server offers beside its tools: prompts (`#[prompt]`, or `#[prompts]` on an
//! `impl` block), resources and resource templates (`#[resource]`, `#[resources]`), gathered
//! in a [`Catalog`] by [`catalog!`](crate::catalog!).
//!
//! | file | what is in it |
//! |---|---|
//! | `prompt.rs` | [`Prompt`], [`PromptSpec`], [`PromptMessage`], [`PromptResult`], [`IntoPromptResult`] |
//! | `resource.rs` | [`Resource`], [`ResourceSpec`], [`UriTemplate`], [`IntoContents`] |
//! | `set.rs` | [`Catalog`], its entries and [`CatalogError`] |
//! | `edit.rs` | [`CatalogEditor`]: a served catalog that changes |
//! | `args.rs` | reading a prompt argument or template variable (what generated code calls) |

pub(crate) mod args;
mod edit;
mod prompt;
pub(crate) mod resource;
mod set;

pub use edit::CatalogEditor;
pub use prompt::{
    IntoPromptResult, Prompt, PromptArgument, PromptMessage, PromptResult, PromptSpec, Prompts,
};
pub use resource::{IntoContents, Resource, ResourceSpec, ResourceUri, Resources, UriTemplate};
pub use set::{
    Catalog, CatalogEntry, CatalogError, CatalogItem, CompletionRef, PromptEntry, ResourceEntry,
};

/// A [`Catalog`] of `#[prompt]` and `#[resource]` functions, by path:
/// `catalog![greet, note, docs::readme]`.
#[macro_export]
macro_rules! catalog {
    ($($item:path),* $(,)?) => {
        $crate::catalog::Catalog::new()$(.with::<$item>())*
    };
}
