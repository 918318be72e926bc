//! What one provider is ([`Wire`]: the names it accepts, its definition shape, where its
//! calls are and how it wants them answered), and the building blocks the provider files
//! (`openai.rs`, `anthropic.rs`, `gemini.rs`, `mcp.rs`) make their `Wire`s from.

use std::borrow::Cow;

use serde_json::{Map, Value};

use super::definitions::{ToolCall, ToolLoss};
use crate::failure::FailureKind;
use crate::failure::ToolFailure;
use crate::failure::transport::{RetryDecision, for_retry, structured};
use crate::schema::dialect::Transformed;
use crate::tool::ToolSpec;

/// One provider's behaviour at every stage: the names it accepts, the shape of its tool
/// definitions, where its calls are and how it wants them answered.
pub(super) struct Wire {
    /// The tool names it accepts.
    pub(super) names: Names,
    /// Whether a tool's output schema is declared (through the dialect's output transform).
    pub(super) declares_output: bool,
    /// One tool in the provider's request shape: the spec, the provider's name for it, the
    /// input schema through the dialect, and the output schema when declared.
    pub(super) declare: fn(&ToolSpec, &str, &Transformed, Option<Value>) -> Value,
    /// The request's `tools` value around the declared tools.
    pub(super) tools: fn(Vec<Value>) -> Value,
    /// Per-request limits, checked against the strict input schemas.
    pub(super) request_limits: Option<RequestLimits>,
    /// Where its calls are in a response, or why its calls are not answered here.
    pub(super) calls: Result<&'static Layout, &'static str>,
    /// One call's answer: a message, an input item, a block or a part.
    pub(super) answer: fn(&ToolCall<'_>, Result<Cow<'_, Value>, &ToolFailure>) -> Value,
    /// The key of the one user message every call's answer goes in (`content`, `parts`), or
    /// `None`: one message per call.
    pub(super) group: Option<&'static str>,
}

/// Checks the strict input schemas of one request, adding a loss per limit passed.
pub(super) type RequestLimits = fn(&[Value], &mut Vec<ToolLoss>);

// ---- Names ----

/// The tool names a provider accepts: ASCII letters and digits, `extra`, at most `max`
/// characters, the first a letter or `_` when `letter_first`.
pub(super) struct Names {
    pub(super) max: usize,
    pub(super) extra: &'static [char],
    pub(super) letter_first: bool,
}

/// Tool names as OpenAI and Anthropic accept them: `^[A-Za-z0-9_-]{1,64}$`.
pub(super) const NAMES_64: Names = Names {
    max: 64,
    extra: &['_', '-'],
    letter_first: false,
};

impl Names {
    /// `name` as the provider accepts it.
    pub(super) fn map(&self, name: &str) -> String {
        let mut out: String = name
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || self.extra.contains(&c) {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        if out.is_empty()
            || (self.letter_first
                && !out.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_'))
        {
            out.insert(0, '_');
        }
        // Only ASCII is left, so a byte index is a character boundary.
        out.truncate(self.max);
        out
    }
}

/// A tool's `name`, then (when given) `title` and `description`: the fields every shape
/// starts with, in this order.
pub(super) fn named(name: &str, title: Option<&str>, description: &str) -> Map<String, Value> {
    let mut tool = Map::new();
    tool.insert("name".into(), name.into());
    if let Some(title) = title {
        tool.insert("title".into(), title.into());
    }
    if !description.is_empty() {
        tool.insert("description".into(), description.into());
    }
    tool
}

/// Arguments sent as an object (Anthropic, Gemini).
pub(super) fn object_arguments(raw: Option<&Value>) -> Result<Cow<'_, Value>, ToolFailure> {
    match raw {
        None | Some(Value::Null) => Ok(Cow::Owned(Value::Object(Map::new()))),
        Some(args @ Value::Object(_)) => Ok(Cow::Borrowed(args)),
        Some(other) => Err(ToolFailure::invalid_arguments(format!(
            "arguments: expected an object, got {}",
            crate::tool::call::args::describe(other)
        ))),
    }
}

/// Where one provider keeps its calls and how it spells each part of one.
pub(super) struct Layout {
    /// Paths to the list of calls (the response, then its message).
    pub(super) paths: &'static [&'static [&'static str]],
    pub(super) what: &'static str,
    /// The call inside an item of the list, if the item is a call.
    pub(super) call: fn(&Value) -> Option<&Value>,
    /// The node that holds `name` and the arguments.
    pub(super) function: fn(&Value) -> &Value,
    /// The keys of the call id, first found wins.
    pub(super) ids: &'static [&'static str],
    pub(super) arguments: &'static str,
    /// How the arguments are read.
    pub(super) decode: fn(Option<&Value>) -> Result<Cow<'_, Value>, ToolFailure>,
}

/// The item itself when its `type` is `kind`.
pub(super) fn of_type<'a>(item: &'a Value, kind: &str) -> Option<&'a Value> {
    (text_at(item, "type") == Some(kind)).then_some(item)
}

/// A JSON object of `fields`, in this order. Built by inserting the values as they are:
/// `json!` serializes every non-literal value anew, copying each `String` it could move
/// (measured in BENCHMARKS.md §12).
pub(super) fn object<const N: usize>(fields: [(&str, Value); N]) -> Value {
    let mut map = Map::new();
    for (key, value) in fields {
        map.insert(key.to_owned(), value);
    }
    Value::Object(map)
}

/// The call's id as its answer echoes it (`null` when the provider sent none).
pub(super) fn id(call: &ToolCall<'_>) -> Value {
    call.id.map_or(Value::Null, Value::from)
}

/// A failure as the model reads it.
pub(super) fn failure_body(failure: &ToolFailure) -> Value {
    let mut body = Map::new();
    body.insert("message".into(), failure.message().into());
    if let Value::Object(fields) = structured(failure) {
        body.extend(fields);
    }
    let retryable = matches!(for_retry(failure), RetryDecision::Retry { .. })
        || (failure.kind() == FailureKind::InvalidArguments && !failure.is_terminal());
    body.insert("retryable".into(), retryable.into());
    object([("error", Value::Object(body))])
}

/// A result as text: a string output as it is, anything else as JSON.
pub(super) fn text(result: Result<Cow<'_, Value>, &ToolFailure>) -> String {
    match result {
        Ok(Cow::Owned(Value::String(s))) => s,
        Ok(Cow::Borrowed(Value::String(s))) => s.clone(),
        Ok(other) => other.to_string(),
        Err(failure) => failure_body(failure).to_string(),
    }
}

pub(super) fn text_at<'a>(item: &'a Value, key: &str) -> Option<&'a str> {
    item.get(key).and_then(Value::as_str)
}
