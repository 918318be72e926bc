//! `#[prompt]`, `#[resource]`, `#[prompts]` and `#[resources]` use absolute paths only, work
//! through a re-export with `crate = …`, keep `missing_docs` and clippy's pedantic lints quiet,
//! and their items join a catalog; a generic block too.
#![deny(missing_docs, unused_qualifications, clippy::pedantic)]

/// A module named like `core` must not capture the generated paths.
mod core {}

/// The runtime under another name.
pub mod reexport {
    pub use ::tool_executor as tool_executor;
}

use tool_executor::catalog::PromptMessage;

/// Completes a topic.
#[must_use]
pub fn topics(prefix: &str) -> Vec<String> {
    vec![format!("{prefix}!")]
}

/// Writes about a topic.
#[tool_executor::prompt(crate = crate::reexport::tool_executor, name = "write-about")]
pub async fn write_about(
    /// The topic.
    #[arg(complete = topics)]
    topic: String,
    /// How many words.
    words: Option<u32>,
) -> PromptMessage {
    PromptMessage::user(format!("{} words on {topic}", words.unwrap_or(100)))
}

/// A note.
#[tool_executor::resource(template = "notes://{id}", crate = crate::reexport::tool_executor)]
pub fn note(
    /// The note's id.
    #[arg(rename = "id")]
    note_id: u64,
) -> Result<String, tool_executor::ToolFailure> {
    Ok(note_id.to_string())
}

/// A shelf of `T`s.
pub struct Shelf<T> {
    /// What is on it.
    pub items: Vec<T>,
}

#[tool_executor::prompts(crate = crate::reexport::tool_executor)]
#[tool_executor::resources(crate = crate::reexport::tool_executor)]
impl<T: std::fmt::Display + Send + Sync + 'static> Shelf<T> {
    /// Describes the shelf.
    #[prompt]
    pub fn describe(
        &self,
        /// The reader.
        reader: &str,
        ctx: &tool_executor::ToolContext,
    ) -> String {
        format!("{reader}, {} items ({})", self.items.len(), ctx.action_id())
    }

    /// One item.
    #[resource(template = "shelf://{index}")]
    pub fn item(&self, index: usize) -> Result<String, tool_executor::ToolFailure> {
        self.items
            .get(index)
            .map(ToString::to_string)
            .ok_or_else(|| tool_executor::ToolFailure::invalid_arguments("no such item"))
    }
}

fn main() {
    let catalog = tool_executor::catalog![write_about, note]
        .with_prompts(Shelf { items: vec![1, 2] })
        .with_resources(Shelf {
            items: vec!["a".to_owned()],
        });
    assert!(catalog.has_prompts() && catalog.has_resources());
    assert_eq!(catalog.prompts().len(), 2);
    assert_eq!(catalog.templates().len(), 2);
}
