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
mod gemini;
mod mcp;
mod openai;
mod stages;

use std::fmt;
use std::str::FromStr;
use std::sync::{Arc, OnceLock};

use serde::{Serialize, Serializer};
use serde_json::Value;

use crate::schema::dialect::Dialect;
use crate::tool::route::RouteTable;
use crate::tool::{ToolExecutor, ToolSet, ToolSpec};

pub use answer::{Answer, CallOutcome, DEFAULT_CONCURRENCY, Messages};
use stages::Wire;
pub use stages::{CallsError, NameCollision, ToolCall};

/// Where tool definitions go and whose tool calls come back.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Provider {
    /// OpenAI Chat Completions: `{"type":"function","function":{…,"strict"}}`, calls in
    /// `tool_calls[]`, answers as `role: tool` messages.
    OpenAiChat,
    /// OpenAI Responses: `{"type":"function",name,…,"strict"}`, `function_call` items,
    /// `function_call_output` answers.
    OpenAiResponses,
    /// Anthropic Messages: `{name, description, input_schema}`, `tool_use` blocks,
    /// `tool_result` answers.
    Anthropic,
    /// Anthropic with strict tool use: `"strict": true` on every tool that can be strict.
    AnthropicStrict,
    /// Gemini: `[{"functionDeclarations":[{…, parameters, response}]}]` (OpenAPI schemas),
    /// `functionCall` parts, `functionResponse` answers.
    Gemini,
    /// Gemini with `parametersJsonSchema` / `responseJsonSchema`.
    GeminiJsonSchema,
    /// MCP `tools/list` (calls are served by [`McpServer`](crate::mcp), not here).
    Mcp,
}

impl Provider {
    /// Every provider, in declaration order.
    pub const ALL: [Provider; 7] = [
        Self::OpenAiChat,
        Self::OpenAiResponses,
        Self::Anthropic,
        Self::AnthropicStrict,
        Self::Gemini,
        Self::GeminiJsonSchema,
        Self::Mcp,
    ];

    /// The schema dialect this provider reads.
    #[must_use]
    pub const fn dialect(self) -> Dialect {
        match self {
            Self::OpenAiChat | Self::OpenAiResponses => Dialect::OpenAiStrict,
            Self::Anthropic => Dialect::Anthropic,
            Self::AnthropicStrict => Dialect::AnthropicStrict,
            Self::Gemini => Dialect::Gemini,
            Self::GeminiJsonSchema => Dialect::GeminiJsonSchema,
            Self::Mcp => Dialect::Mcp,
        }
    }

    /// The name used on command lines: `openai`, `openai-responses`, `anthropic`,
    /// `anthropic-strict`, `gemini`, `gemini-json-schema`, `mcp`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::OpenAiChat => "openai",
            Self::OpenAiResponses => "openai-responses",
            Self::Anthropic => "anthropic",
            Self::AnthropicStrict => "anthropic-strict",
            Self::Gemini => "gemini",
            Self::GeminiJsonSchema => "gemini-json-schema",
            Self::Mcp => "mcp",
        }
    }

    const fn index(self) -> usize {
        self as usize
    }

    /// How this provider behaves at every stage (its file: `openai.rs`, `anthropic.rs`,
    /// `gemini.rs`, `mcp.rs`).
    const fn wire(self) -> &'static Wire {
        match self {
            Self::OpenAiChat => &openai::CHAT,
            Self::OpenAiResponses => &openai::RESPONSES,
            Self::Anthropic => &anthropic::STANDARD,
            Self::AnthropicStrict => &anthropic::STRICT,
            Self::Gemini => &gemini::OPENAPI,
            Self::GeminiJsonSchema => &gemini::JSON_SCHEMA,
            Self::Mcp => &mcp::MCP,
        }
    }
}

impl fmt::Display for Provider {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A provider name that is not one of [`Provider::as_str`]'s.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownProvider(pub String);

impl fmt::Display for UnknownProvider {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let known: Vec<&str> = Provider::ALL.iter().map(|p| p.as_str()).collect();
        write!(
            f,
            "unknown provider `{}`; expected one of {}",
            self.0,
            known.join(", ")
        )
    }
}

impl std::error::Error for UnknownProvider {}

impl FromStr for Provider {
    type Err = UnknownProvider;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .into_iter()
            .find(|p| p.as_str() == s)
            .ok_or_else(|| UnknownProvider(s.to_owned()))
    }
}

/// Which of a tool's schemas a loss is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum SchemaRole {
    /// The arguments schema.
    Input,
    /// The result schema.
    Output,
    /// The request as a whole (a per-request limit).
    Request,
}

/// A [`Loss`](crate::schema::dialect::Loss) in one tool's definition.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ToolLoss {
    /// The tool's own name (empty for a per-request limit).
    pub tool: String,
    /// Which schema.
    pub schema: SchemaRole,
    /// JSON pointer into the canonical schema.
    pub pointer: String,
    /// What changed.
    pub reason: String,
}

/// How one declared tool maps back.
#[derive(Debug, Clone)]
struct Declared {
    /// The provider's name for it.
    provider_name: String,
    /// Our name.
    name: String,
    /// Top-level arguments whose `null` means "not given" (OpenAI strict).
    absent_when_null: Vec<String>,
    /// Top-level arguments declared under another name, as (declared, ours) (Gemini).
    renamed_arguments: Vec<(String, String)>,
}

/// A provider's tool definitions for a set of tools: serializes to exactly the array the
/// provider's request takes (`tools`), maps the provider's tool names back to ours and
/// answers its tool calls.
#[derive(Debug, Clone)]
pub struct Definitions {
    provider: Provider,
    tools: Value,
    declared: Vec<Declared>,
    /// `declared` by provider name: a tool call's lookup reads one slot instead of comparing
    /// every name (measured in BENCHMARKS.md §12).
    by_provider_name: RouteTable<usize>,
    losses: Vec<ToolLoss>,
}

impl Definitions {
    /// The definitions of `specs` for `provider`.
    ///
    /// # Errors
    /// [`NameCollision`] when two tools map to one provider name.
    pub fn from_specs(specs: &[Arc<ToolSpec>], provider: Provider) -> Result<Self, NameCollision> {
        stages::build(specs, provider)
    }

    /// The definitions of everything `executor` lists ([`ToolExecutor::specs`]), computed
    /// anew on each call; [`ToolSet::definitions`] caches them.
    ///
    /// # Errors
    /// [`NameCollision`] when two tools map to one provider name.
    pub fn of<E: ToolExecutor + ?Sized>(
        executor: &E,
        provider: Provider,
    ) -> Result<Self, NameCollision> {
        Self::from_specs(&executor.specs(), provider)
    }

    /// The provider.
    #[must_use]
    pub fn provider(&self) -> Provider {
        self.provider
    }

    /// The `tools` array, as sent.
    #[must_use]
    pub fn tools(&self) -> &Value {
        &self.tools
    }

    /// Every change of meaning, per tool, in the order the tools were listed.
    #[must_use]
    pub fn losses(&self) -> &[ToolLoss] {
        &self.losses
    }

    /// Our name for the tool the provider calls `provider_name`.
    #[must_use]
    pub fn tool_name(&self, provider_name: &str) -> Option<&str> {
        self.find(provider_name).map(|d| d.name.as_str())
    }

    /// The provider's name for our tool `name`.
    #[must_use]
    pub fn provider_name(&self, name: &str) -> Option<&str> {
        self.declared
            .iter()
            .find(|d| d.name == name)
            .map(|d| d.provider_name.as_str())
    }

    fn find(&self, provider_name: &str) -> Option<&Declared> {
        let index = *self.by_provider_name.get(provider_name)?;
        self.declared.get(index)
    }
}

impl Serialize for Definitions {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.tools.serialize(serializer)
    }
}

/// One cached result per provider, kept in the [`ToolSet`] (like its spec list).
#[derive(Default)]
pub(crate) struct Cache([OnceLock<Result<Arc<Definitions>, NameCollision>>; Provider::ALL.len()]);

impl ToolSet {
    /// This set's tool definitions for `provider`, computed on first use and shared after.
    ///
    /// ```
    /// use tool_executor::prelude::*;
    /// use tool_executor::provider::Provider;
    ///
    /// /// Adds two integers.
    /// #[tool]
    /// fn add(a: i64, b: i64) -> i64 { a + b }
    ///
    /// let tools = toolset![add];
    /// let defs = tools.definitions(Provider::Gemini).unwrap();
    /// assert_eq!(
    ///     serde_json::to_value(&*defs).unwrap()[0]["functionDeclarations"][0]["parameters"]["type"],
    ///     "OBJECT"
    /// );
    /// // The second call hands out the same definitions.
    /// assert!(std::sync::Arc::ptr_eq(&defs, &tools.definitions(Provider::Gemini).unwrap()));
    /// ```
    ///
    /// # Errors
    /// [`NameCollision`] when two of the set's tools map to one provider name.
    pub fn definitions(&self, provider: Provider) -> Result<Arc<Definitions>, NameCollision> {
        self.definitions_cache().0[provider.index()]
            .get_or_init(|| Definitions::from_specs(self.list(), provider).map(Arc::new))
            .clone()
    }
}
