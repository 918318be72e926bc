//! The logic every provider shares, stage by stage; what differs is each provider's [`Wire`]
//! (in `openai.rs`, `anthropic.rs`, `gemini.rs`, `mcp.rs`).
//!
//! - **Names**: every character a provider refuses becomes `_`, a name is cut at the limit,
//!   and a name that must start with a letter or `_` gets a `_` in front. Two tools that map
//!   to one name are an error ([`NameCollision`]), never a silent shadowing.
//! - **Declaring**: each schema through the provider's dialect ([`Dialect`]), each change of
//!   meaning a [`ToolLoss`], each tool in the provider's shape.
//! - **Reading calls**: each parser takes the whole response, the message (or content) inside
//!   it, or the bare list, so a program can hand over whatever it holds. Arguments that do not
//!   parse are not an error for the program: the call carries an invalid-arguments failure,
//!   which is answered to the model like any other.
//! - **Arguments** back in our declared shape: `null`s that mean "not given" removed (OpenAI
//!   strict), renamed parameters under their own names again (Gemini).
//! - **Answering**: a result is the output (a string as it is, anything else as JSON text;
//!   for Gemini the value under `response.output`). A failure is `{"error": {"message",
//!   "code", "kind", "classification", "retryable", "retry_after_ms"?, "data"?}}`, from the
//!   failure table ([`failure::transport`](crate::failure::transport)): `retryable` tells the
//!   model whether calling again can help, and a redacted failure's text and data stay
//!   withheld. A model is a caller that can change its arguments, so an ordinary
//!   invalid-arguments failure is retryable for it, although a runtime never resends the same
//!   call ([`for_retry`] says stop).
//!
//! [`Dialect`]: crate::schema::dialect::Dialect

use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

use serde_json::{Map, Value};

use super::{Declared, Definitions, Provider, SchemaRole, ToolLoss};
use crate::failure::transport::{RetryDecision, for_retry, structured};
use crate::failure::{FailureKind, ToolFailure};
use crate::schema::dialect::{Loss, Transformed};
use crate::tool::ToolSpec;
use crate::tool::route::RouteTable;

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

// ---- Declaring ----

/// The definitions of `specs` for `provider`: each tool's name mapped and checked for
/// collisions, its schemas through the provider's dialect, in the provider's shape.
pub(super) fn build(
    specs: &[Arc<ToolSpec>],
    provider: Provider,
) -> Result<Definitions, NameCollision> {
    let wire = provider.wire();
    let mut taken: HashMap<String, &str> = HashMap::new();
    let mut declared = Vec::with_capacity(specs.len());
    let mut tools = Vec::with_capacity(specs.len());
    let mut losses = Vec::new();
    let mut strict = Vec::new();
    for spec in specs {
        let provider_name = wire.names.map(&spec.name);
        if let Some(first) = taken.insert(provider_name.clone(), &spec.name) {
            return Err(NameCollision {
                provider,
                mapped: provider_name,
                first: first.to_owned(),
                second: spec.name.clone(),
            });
        }
        let input = provider.dialect().input(&spec.input_schema);
        push_losses(&mut losses, &spec.name, SchemaRole::Input, &input.losses);
        let output = match &spec.output_schema {
            Some(schema) if wire.declares_output => {
                let out = provider.dialect().output(schema);
                push_losses(&mut losses, &spec.name, SchemaRole::Output, &out.losses);
                Some(out.schema)
            }
            _ => None,
        };
        if input.strict {
            strict.push(input.schema.clone());
        }
        tools.push((wire.declare)(spec, &provider_name, &input, output));
        declared.push(Declared {
            provider_name,
            name: spec.name.clone(),
            absent_when_null: input.absent_when_null,
            renamed_arguments: input.renamed_arguments,
        });
    }
    if let Some(request_limits) = wire.request_limits {
        request_limits(&strict, &mut losses);
    }
    let tools = (wire.tools)(tools);
    let by_provider_name = RouteTable::new(
        declared
            .iter()
            .enumerate()
            .map(|(index, d)| (d.provider_name.clone(), index)),
    );
    Ok(Definitions {
        provider,
        tools,
        declared,
        by_provider_name,
        losses,
    })
}

fn push_losses(out: &mut Vec<ToolLoss>, tool: &str, schema: SchemaRole, losses: &[Loss]) {
    out.extend(losses.iter().map(|l| ToolLoss {
        tool: tool.to_owned(),
        schema,
        pointer: l.pointer.clone(),
        reason: l.reason.clone(),
    }));
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

// ---- Reading calls ----

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

/// The tool calls in `response`, in the order sent, each read when the iterator reaches it
/// (a single call is answered without collecting a list).
pub(super) fn each(
    provider: Provider,
    response: &Value,
) -> Result<impl Iterator<Item = Result<ToolCall<'_>, CallsError>>, CallsError> {
    let layout = provider
        .wire()
        .calls
        .map_err(|why| CallsError(why.to_owned()))?;
    let items = list(response, layout.paths, layout.what)?;
    Ok(items
        .iter()
        .filter_map(layout.call)
        .map(move |call| read(call, layout)))
}

/// The array at the first path that holds one, or `value` itself when it is an array. A
/// segment of one digit is an array index, any other an object key.
fn list<'a>(value: &'a Value, paths: &[&[&str]], what: &str) -> Result<&'a [Value], CallsError> {
    if let Value::Array(items) = value {
        return Ok(items);
    }
    for path in paths {
        let mut at = value;
        for key in *path {
            at = match key.as_bytes() {
                [digit @ b'0'..=b'9'] => at.get(usize::from(digit - b'0')),
                _ => at.get(*key),
            }
            .unwrap_or(&Value::Null);
        }
        if let Value::Array(items) = at {
            return Ok(items);
        }
    }
    // An assistant message without tool calls has none to answer.
    let message = paths
        .iter()
        .any(|p| p.len() > 1 && value.get(p[0]).is_some());
    if message || value.get("role").is_some() {
        return Ok(&[]);
    }
    Err(CallsError(format!("no {what} in the response")))
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

fn read<'a>(call: &'a Value, layout: &Layout) -> Result<ToolCall<'a>, CallsError> {
    let function = (layout.function)(call);
    let name = text_at(function, "name").ok_or_else(|| missing(layout.what, call))?;
    Ok(ToolCall {
        id: layout.ids.iter().find_map(|k| text_at(call, k)),
        name,
        arguments: (layout.decode)(function.get(layout.arguments)),
    })
}

fn text_at<'a>(item: &'a Value, key: &str) -> Option<&'a str> {
    item.get(key).and_then(Value::as_str)
}

fn missing(what: &str, item: &Value) -> CallsError {
    CallsError(format!("a call in {what} without a string `name`: {item}"))
}

/// The item itself when its `type` is `kind`.
pub(super) fn of_type<'a>(item: &'a Value, kind: &str) -> Option<&'a Value> {
    (text_at(item, "type") == Some(kind)).then_some(item)
}

// ---- Arguments ----

impl Declared {
    /// Whether `args` need [`restore`](Self::restore): a `null` for an argument whose `null`
    /// means "not given", or an argument under its declared name. Most calls need neither, so
    /// they are decoded without a copy.
    pub(super) fn rewrites(&self, args: &Map<String, Value>) -> bool {
        self.absent_when_null
            .iter()
            .any(|name| args.get(name).is_some_and(Value::is_null))
            || self
                .renamed_arguments
                .iter()
                .any(|(declared, _)| args.contains_key(declared))
    }

    /// `args` with those `null`s removed and renamed arguments under our names.
    pub(super) fn restore(&self, args: &Map<String, Value>) -> Map<String, Value> {
        args.iter()
            .filter(|(k, v)| !(v.is_null() && self.absent_when_null.contains(k)))
            .map(|(k, v)| {
                let ours = self
                    .renamed_arguments
                    .iter()
                    .find(|(declared, _)| declared == k)
                    .map_or(k, |(_, ours)| ours);
                (ours.clone(), v.clone())
            })
            .collect()
    }
}

// ---- Answering ----

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

#[cfg(test)]
mod tests {
    use super::*;

    fn map(provider: Provider, name: &str) -> String {
        provider.wire().names.map(name)
    }

    #[test]
    fn dotted_names_lose_the_dot_where_refused() {
        assert_eq!(map(Provider::OpenAiChat, "notes.search"), "notes_search");
        assert_eq!(
            map(Provider::AnthropicStrict, "notes.search"),
            "notes_search"
        );
        assert_eq!(map(Provider::Gemini, "notes.search"), "notes.search");
        assert_eq!(map(Provider::Mcp, "notes.search"), "notes.search");
    }

    #[test]
    fn gemini_names_start_with_a_letter_or_underscore() {
        assert_eq!(map(Provider::Gemini, "1st-tool"), "_1st-tool");
        assert_eq!(map(Provider::OpenAiChat, "1st-tool"), "1st-tool");
        assert_eq!(map(Provider::Gemini, "wetter/über"), "wetter__ber");
    }

    #[test]
    fn names_are_cut_at_the_limit() {
        let long = "a".repeat(200);
        assert_eq!(map(Provider::OpenAiResponses, &long).len(), 64);
        assert_eq!(map(Provider::Gemini, &long).len(), 128);
        assert_eq!(map(Provider::Anthropic, ""), "_");
    }
}
