//! LLM providers: tool definitions in each provider's request shape, and the tool calls they
//! send back answered in their own message shapes. No HTTP client: these are JSON values a
//! program sends with async-openai, reqwest or anything else.
//!
//! ```
//! use tool_executor::prelude::*;
//! use tool_executor::provider::Provider;
//!
//! /// Searches the notes.
//! #[tool(name = "notes.search")]
//! fn search(
//!     /// What to look for.
//!     query: &str,
//!     /// How many hits to return.
//!     #[arg(default = 5)]
//!     limit: u8,
//! ) -> Vec<String> {
//!     vec![format!("{query} ×{limit}")]
//! }
//!
//! # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
//! let tools = toolset![search];
//! let defs = tools.definitions(Provider::OpenAiChat).unwrap();
//! // OpenAI names allow no `.`: the tool is declared as `notes_search`, strict, every
//! // property required (`limit` nullable: `null` means "not given").
//! let tool = &defs.tools()[0];
//! assert_eq!(tool["function"]["name"], "notes_search");
//! assert_eq!(tool["function"]["strict"], true);
//! assert_eq!(tool["function"]["parameters"]["required"], json!(["limit", "query"]));
//! assert!(defs.losses().is_empty());
//!
//! // The model calls it; the answer is the `role: tool` message to append. The answer
//! // borrows the completion (the call's id and name) and the definitions (our tool's name).
//! let completion = json!({"choices": [{"message": {"role": "assistant", "tool_calls": [{
//!     "id": "call_1", "type": "function",
//!     "function": {"name": "notes_search", "arguments": "{\"query\":\"rust\",\"limit\":null}"}
//! }]}}]});
//! let answer = defs.answer(&tools, &completion).await.unwrap();
//! assert_eq!(answer.outcomes()[0].tool, Some("notes.search"));
//! let mut conversation = vec![completion["choices"][0]["message"].clone()];
//! conversation.extend(answer.into_messages());
//! assert_eq!(
//!     conversation[1],
//!     json!({"role": "tool", "tool_call_id": "call_1", "content": "[\"rust ×5\"]"})
//! );
//! # });
//! ```

mod answer;
mod anthropic;
mod defer;
mod definitions;
mod gemini;
mod mcp;
mod openai;
mod resume;
mod stages;
mod waiting;
mod wire;

pub use answer::{Answer, CallOutcome, DEFAULT_CONCURRENCY, Messages};
pub use defer::DeferError;
pub(crate) use definitions::Cache;
pub use definitions::{
    CallsError, Definitions, NameCollision, Provider, SchemaRole, ToolCall, ToolLoss,
    UnknownProvider,
};
pub use waiting::Waiting;
