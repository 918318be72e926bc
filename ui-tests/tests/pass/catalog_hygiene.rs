//! `#[prompt]` and `#[resource]` use absolute paths only, work through a re-export with
//! `crate = …`, keep `missing_docs` and clippy's pedantic lints quiet, and their items join a
//! catalog.
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

fn main() {
    let catalog = tool_executor::catalog![write_about, note];
    assert!(catalog.has_prompts() && catalog.has_resources());
}
