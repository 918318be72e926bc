//! The provider-independent types: [`Provider`], [`Definitions`] (what a set of tools is
//! declared as, and how each declared tool maps back), the losses and the calls read back.
//! What each provider does with them is its [`Wire`](super::wire::Wire) (`openai.rs`,
//! `anthropic.rs`, `gemini.rs`, `mcp.rs`); the stages that use them are in `stages.rs`.

use std::borrow::Cow;
use std::fmt;
use std::str::FromStr;
use std::sync::{Arc, OnceLock};

use serde::{Serialize, Serializer};
use serde_json::Value;

use crate::failure::ToolFailure;
use crate::schema::dialect::Dialect;
use crate::tool::route::RouteTable;

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

    pub(super) const fn index(self) -> usize {
        self as usize
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
pub(super) struct Declared {
    /// The provider's name for it.
    pub(super) provider_name: String,
    /// Our name.
    pub(super) name: String,
    /// Top-level arguments whose `null` means "not given" (OpenAI strict).
    pub(super) absent_when_null: Vec<String>,
    /// Top-level arguments declared under another name, as (declared, ours) (Gemini).
    pub(super) renamed_arguments: Vec<(String, String)>,
    /// Whether the tool may ask its user ([`ToolSpec::asks_user`](crate::tool::ToolSpec)):
    /// only then is a call run so that a question defers it.
    pub(super) asks_user: bool,
}

/// A provider's tool definitions for a set of tools: serializes to exactly the array the
/// provider's request takes (`tools`), maps the provider's tool names back to ours and
/// answers its tool calls.
#[derive(Debug, Clone)]
pub struct Definitions {
    pub(super) provider: Provider,
    pub(super) tools: Value,
    pub(super) declared: Vec<Declared>,
    /// `declared` by provider name: a tool call's lookup reads one slot instead of comparing
    /// every name (measured in BENCHMARKS.md §12).
    pub(super) by_provider_name: RouteTable<usize>,
    pub(super) losses: Vec<ToolLoss>,
}

impl Definitions {
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

    pub(super) fn find(&self, provider_name: &str) -> Option<&Declared> {
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
pub(crate) struct Cache(
    pub(super) [OnceLock<Result<Arc<Definitions>, NameCollision>>; Provider::ALL.len()],
);

/// Two tools whose names map to one provider name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NameCollision {
    /// The provider.
    pub provider: Provider,
    /// The name both map to.
    pub mapped: String,
    /// The first tool's own name.
    pub first: String,
    /// The second tool's own name.
    pub second: String,
}

impl fmt::Display for NameCollision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "tools `{}` and `{}` are both named `{}` for {}; rename one",
            self.first, self.second, self.mapped, self.provider
        )
    }
}

impl std::error::Error for NameCollision {}

/// One tool call, as the provider sent it, borrowed from the response it was read from.
///
/// The arguments are borrowed when the provider sent an object we can run as it is
/// (Anthropic; OpenAI-compatible servers that send the object), owned when they were parsed
/// from a JSON string (OpenAI) or rewritten (Gemini's integral doubles).
#[derive(Debug, Clone, PartialEq)]
pub struct ToolCall<'a> {
    /// The provider's call id, echoed in the answer (Gemini may send none).
    pub id: Option<&'a str>,
    /// The tool's name as the provider knows it.
    pub name: &'a str,
    /// The arguments object, or why it could not be read.
    pub arguments: Result<Cow<'a, Value>, ToolFailure>,
}

/// A response that has no place where this provider puts tool calls.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CallsError(pub String);

impl fmt::Display for CallsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for CallsError {}
