//! Deferred loading: the providers that search a large set of tools themselves. Every tool
//! but those kept loaded is declared with `"defer_loading": true`, and the provider's own
//! search tool is added to the list, so the model starts with a few definitions and loads the
//! others when a search finds them.
//!
//! | provider | marks | search tool added |
//! |---|---|---|
//! | OpenAI Responses | `"defer_loading": true` on each function | `{"type": "tool_search"}` |
//! | Anthropic (both) | `"defer_loading": true` on each tool | `{"type": "tool_search_tool_bm25_20251119", "name": "tool_search_tool_bm25"}` |
//!
//! OpenAI Chat Completions, Gemini and MCP `tools/list` have no deferred loading: serve the
//! set behind [`SearchTools`](crate::search::SearchTools) instead, which lists one
//! `search_tools` tool and answers it itself. The searches themselves run on the provider's
//! side; the calls that follow are ordinary tool calls, answered as any other.

use std::fmt;

use serde_json::{Value, json};

use super::definitions::{Definitions, Provider};

/// Why [`Definitions::defer_loading`] refused.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum DeferError {
    /// The provider has no deferred loading.
    Unsupported(Provider),
    /// A tool to keep loaded is not among the definitions.
    UnknownTool(String),
}

impl fmt::Display for DeferError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Unsupported(provider) => write!(
                f,
                "{provider} has no deferred loading (openai-responses, anthropic and \
                 anthropic-strict have); serve the tools behind \
                 `tool_executor::search::SearchTools` instead"
            ),
            Self::UnknownTool(name) => write!(
                f,
                "`{name}` is not among the definitions, so it cannot be kept loaded"
            ),
        }
    }
}

impl std::error::Error for DeferError {}

impl Definitions {
    /// These definitions with every tool but `keep_loaded` (our names) marked
    /// `"defer_loading": true`, and the provider's search tool added at the end.
    ///
    /// ```
    /// use tool_executor::prelude::*;
    /// use tool_executor::provider::Provider;
    ///
    /// /// Current weather for a city.
    /// #[tool]
    /// fn weather(city: String) -> String { city }
    /// /// Sends an email.
    /// #[tool]
    /// fn send_email(to: String) -> bool { !to.is_empty() }
    ///
    /// let tools = toolset![weather, send_email];
    /// let defs = tools.definitions(Provider::Anthropic).unwrap();
    /// let defs = (*defs).clone().defer_loading(["weather"]).unwrap();
    /// let declared = defs.tools().as_array().unwrap();
    /// assert_eq!(declared[0].get("defer_loading"), None);
    /// assert_eq!(declared[1]["defer_loading"], true);
    /// assert_eq!(declared[2]["name"], "tool_search_tool_bm25");
    ///
    /// // Gemini has no deferred loading.
    /// let gemini = tools.definitions(Provider::Gemini).unwrap();
    /// assert!((*gemini).clone().defer_loading(["weather"]).is_err());
    /// ```
    ///
    /// # Errors
    /// [`DeferError::Unsupported`] for a provider without deferred loading,
    /// [`DeferError::UnknownTool`] for a name to keep that is not declared here.
    pub fn defer_loading<I, S>(mut self, keep_loaded: I) -> Result<Self, DeferError>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        let search = match self.provider {
            Provider::OpenAiResponses => json!({"type": "tool_search"}),
            Provider::Anthropic | Provider::AnthropicStrict => json!({
                "type": "tool_search_tool_bm25_20251119",
                "name": "tool_search_tool_bm25"
            }),
            other => return Err(DeferError::Unsupported(other)),
        };
        let mut keep = Vec::new();
        for name in keep_loaded {
            let name = name.as_ref();
            let at = self.declared.iter().position(|d| d.name == name);
            keep.push(at.ok_or_else(|| DeferError::UnknownTool(name.to_owned()))?);
        }
        // Both providers declare one array element per tool, in `declared`'s order.
        if let Value::Array(tools) = &mut self.tools {
            for (at, tool) in tools.iter_mut().enumerate().take(self.declared.len()) {
                if let (false, Value::Object(tool)) = (keep.contains(&at), tool) {
                    tool.insert("defer_loading".into(), Value::Bool(true));
                }
            }
            tools.push(search);
        }
        Ok(self)
    }
}
