//! One canonical schema, one transform per consumer.
//!
//! A tool's schemas are JSON Schema 2020-12 (from schemars). Each LLM provider accepts a
//! different subset, so [`Dialect::input`] and [`Dialect::output`] rewrite a canonical schema
//! into what that consumer accepts and return a [`Transformed`]: the schema, whether it may be
//! declared strict, and a loss report.
//!
//! The rules (`$ref` inlining, nullability, which keywords survive) come from
//! `docs/providers.md` §5; each dialect is one file here. Every transform follows three rules:
//!
//! - **Nothing is dropped silently.** A keyword the dialect does not accept moves into the
//!   node's `description` as `{key: value}`, so the model still reads it.
//! - **A [`Loss`] for every change of meaning.** When the emitted schema accepts values the
//!   canonical one refuses (a removed `minLength`, a `oneOf` read as `anyOf` whose branches
//!   overlap, a recursion cut short), the report names the canonical node (a JSON pointer) and
//!   why. Annotations that move into the description (`default`, `examples`, a numeric
//!   `format` whose range `minimum`/`maximum` already state) are not losses.
//! - **Strict only when lossless enough to be honest.** A schema a strict dialect cannot
//!   express at all (an open map, an untyped value, a tuple, a recursion Anthropic refuses) is
//!   emitted in the provider's non-strict form, `strict` is `false`, and a loss says why.
//!
//! ```
//! use tool_executor::schema::dialect::Dialect;
//! use serde_json::json;
//!
//! let canonical = json!({
//!     "type": "object",
//!     "properties": {
//!         "city": {"type": "string", "minLength": 1},
//!         "days": {"type": ["integer", "null"], "format": "uint8", "minimum": 0, "maximum": 255}
//!     },
//!     "required": ["city"],
//!     "additionalProperties": false
//! });
//! let openai = Dialect::OpenAiStrict.input(&canonical);
//! assert!(openai.strict);
//! // Every property is required; `days` was already nullable.
//! assert_eq!(openai.schema["required"], json!(["city", "days"]));
//! // OpenAI strict refuses `minLength`: it moves into the description, and the loss says so.
//! assert_eq!(openai.schema["properties"]["city"]["description"], "{minLength: 1}");
//! assert_eq!(openai.losses[0].pointer, "/properties/city");
//!
//! let gemini = Dialect::Gemini.input(&canonical);
//! assert_eq!(gemini.schema["properties"]["days"]["type"], "INTEGER");
//! assert_eq!(gemini.schema["properties"]["days"]["nullable"], true);
//! ```

mod anthropic;
mod gemini;
mod gemini_rules;
mod mcp;
mod openai;
mod shape;
mod transformed;
mod walk;

use serde_json::Value;

#[cfg(feature = "mcp")]
pub(crate) use mcp::{RESULT_KEY, wrap_output};
pub use transformed::{Loss, Transformed};
pub use walk::integral_floats_to_integers;

/// A consumer of tool schemas.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Dialect {
    /// MCP `tools/list`: any 2020-12 schema with an object root (the canonical schema; a
    /// non-object output is wrapped as `{"result": …}`).
    Mcp,
    /// OpenAI function calling with `strict: true` (Chat Completions and Responses).
    OpenAiStrict,
    /// Anthropic `input_schema` without strict tool use: any schema with an object root.
    Anthropic,
    /// Anthropic strict tool use (`"strict": true`).
    AnthropicStrict,
    /// Gemini `parameters` / `response`: the OpenAPI 3.0 `Schema` subset.
    Gemini,
    /// Gemini `parametersJsonSchema` / `responseJsonSchema`: a JSON Schema subset.
    GeminiJsonSchema,
}

impl Dialect {
    /// Every dialect, in declaration order.
    pub const ALL: [Dialect; 6] = [
        Self::Mcp,
        Self::OpenAiStrict,
        Self::Anthropic,
        Self::AnthropicStrict,
        Self::Gemini,
        Self::GeminiJsonSchema,
    ];

    /// The arguments schema `canonical` in this dialect (its root is always an object).
    ///
    /// ```
    /// use tool_executor::schema::dialect::Dialect;
    /// use serde_json::json;
    ///
    /// // An open map cannot be strict for OpenAI: the tool is declared non-strict.
    /// let map = json!({"type": "object", "properties": {"tags": {
    ///     "type": "object", "additionalProperties": {"type": "string"}}}, "required": ["tags"]});
    /// let out = Dialect::OpenAiStrict.input(&map);
    /// assert!(!out.strict);
    /// assert_eq!(out.losses[0].pointer, "/properties/tags");
    /// ```
    #[must_use]
    pub fn input(self, canonical: &Value) -> Transformed {
        self.transform(canonical, true)
    }

    /// The result schema `canonical` in this dialect (any root; MCP wraps a non-object one).
    #[must_use]
    pub fn output(self, canonical: &Value) -> Transformed {
        self.transform(canonical, false)
    }

    /// The dialect's name in `snake_case`: `mcp`, `openai_strict`, `anthropic`,
    /// `anthropic_strict`, `gemini`, `gemini_json_schema`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Mcp => "mcp",
            Self::OpenAiStrict => "openai_strict",
            Self::Anthropic => "anthropic",
            Self::AnthropicStrict => "anthropic_strict",
            Self::Gemini => "gemini",
            Self::GeminiJsonSchema => "gemini_json_schema",
        }
    }

    /// Whether the dialect enforces schemas (constrained decoding).
    #[must_use]
    pub const fn is_strict(self) -> bool {
        matches!(self, Self::OpenAiStrict | Self::AnthropicStrict)
    }

    fn transform(self, canonical: &Value, input: bool) -> Transformed {
        let mut out = match self {
            Self::Mcp => mcp::transform(canonical, input),
            Self::OpenAiStrict => openai::transform(canonical, input),
            Self::Anthropic => anthropic::standard(canonical, input),
            Self::AnthropicStrict => anthropic::strict(canonical, input),
            Self::Gemini => gemini::openapi(canonical, input),
            Self::GeminiJsonSchema => gemini::json_schema(canonical, input),
        };
        dedup(&mut out.losses);
        out
    }
}

/// One loss per (pointer, reason): a definition used twice is reported once.
fn dedup(losses: &mut Vec<Loss>) {
    let mut seen = std::collections::HashSet::new();
    losses.retain(|l| seen.insert((l.pointer.clone(), l.reason.clone())));
}
