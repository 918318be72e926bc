//! Reading the tool calls out of a provider's response.
//!
//! Each parser takes the whole response, the message (or content) inside it, or the bare
//! list, so a program can hand over whatever it holds:
//!
//! | provider | calls | arguments |
//! |---|---|---|
//! | OpenAI Chat | `choices[0].message.tool_calls[]`: `{id, function: {name, arguments}}` | a JSON **string** |
//! | OpenAI Responses | `output[]` items with `type: "function_call"`: `{call_id, name, arguments}` | a JSON string |
//! | Anthropic | `content[]` blocks with `type: "tool_use"`: `{id, name, input}` | an object |
//! | Gemini | `candidates[0].content.parts[]` with `functionCall: {name, args, id?}` | an object, numbers as doubles |
//!
//! Arguments that do not parse are not an error for the program: the call carries an
//! invalid-arguments failure, which is answered to the model like any other.

use std::borrow::Cow;
use std::fmt;

use serde_json::{Map, Value};

use super::Provider;
use crate::failure::ToolFailure;
use crate::schema::dialect::integral_floats_to_integers;

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
    let layout = match provider {
        Provider::OpenAiChat => &OPENAI_CHAT,
        Provider::OpenAiResponses => &OPENAI_RESPONSES,
        Provider::Anthropic | Provider::AnthropicStrict => &ANTHROPIC,
        Provider::Gemini | Provider::GeminiJsonSchema => &GEMINI,
        Provider::Mcp => {
            return Err(CallsError(
                "MCP tool calls are served by `McpServer`, not answered here".to_owned(),
            ));
        }
    };
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

fn text<'a>(item: &'a Value, key: &str) -> Option<&'a str> {
    item.get(key).and_then(Value::as_str)
}

fn missing(what: &str, item: &Value) -> CallsError {
    CallsError(format!("a call in {what} without a string `name`: {item}"))
}

/// Arguments sent as a JSON string (OpenAI).
fn string_arguments(raw: Option<&Value>) -> Result<Cow<'_, Value>, ToolFailure> {
    match raw {
        None | Some(Value::Null) => Ok(Cow::Owned(Value::Object(Map::new()))),
        Some(Value::String(s)) if blank(s) => Ok(Cow::Owned(Value::Object(Map::new()))),
        Some(Value::String(s)) => serde_json::from_str(s).map(Cow::Owned).map_err(|e| {
            ToolFailure::invalid_arguments(format!("arguments: not valid JSON ({e})"))
        }),
        // Some OpenAI-compatible servers send the object itself.
        Some(other) => Ok(Cow::Borrowed(other)),
    }
}

/// Whether `s` is empty or only whitespace. Arguments nearly always start with `{`, which
/// settles it without `trim`'s character decoding (measured in BENCHMARKS.md §12).
#[inline]
fn blank(s: &str) -> bool {
    match s.as_bytes().first() {
        None => true,
        Some(&b) if b.is_ascii() && !char::from(b).is_whitespace() => false,
        Some(_) => s.trim().is_empty(),
    }
}

/// Arguments sent as an object (Anthropic, Gemini).
fn object_arguments(raw: Option<&Value>) -> Result<Cow<'_, Value>, ToolFailure> {
    match raw {
        None | Some(Value::Null) => Ok(Cow::Owned(Value::Object(Map::new()))),
        Some(args @ Value::Object(_)) => Ok(Cow::Borrowed(args)),
        Some(other) => Err(ToolFailure::invalid_arguments(format!(
            "arguments: expected an object, got {}",
            crate::tool::call::args::describe(other)
        ))),
    }
}

/// Gemini's numbers are doubles (protobuf `Struct`): `2.0` for an integer.
fn integral_doubles(raw: Option<&Value>) -> Result<Cow<'_, Value>, ToolFailure> {
    let mut args = object_arguments(raw)?.into_owned();
    integral_floats_to_integers(&mut args);
    Ok(Cow::Owned(args))
}

/// Where one provider keeps its calls and how it spells each part of one.
struct Layout {
    /// Paths to the list of calls (the response, then its message).
    paths: &'static [&'static [&'static str]],
    what: &'static str,
    /// The call inside an item of the list, if the item is a call.
    call: fn(&Value) -> Option<&Value>,
    /// The node that holds `name` and the arguments.
    function: fn(&Value) -> &Value,
    /// The keys of the call id, first found wins.
    ids: &'static [&'static str],
    arguments: &'static str,
    /// How the arguments are read.
    decode: fn(Option<&Value>) -> Result<Cow<'_, Value>, ToolFailure>,
}

fn read<'a>(call: &'a Value, layout: &Layout) -> Result<ToolCall<'a>, CallsError> {
    let function = (layout.function)(call);
    let name = text(function, "name").ok_or_else(|| missing(layout.what, call))?;
    Ok(ToolCall {
        id: layout.ids.iter().find_map(|k| text(call, k)),
        name,
        arguments: (layout.decode)(function.get(layout.arguments)),
    })
}

fn of_type<'a>(item: &'a Value, kind: &str) -> Option<&'a Value> {
    (text(item, "type") == Some(kind)).then_some(item)
}

const OPENAI_CHAT: Layout = Layout {
    paths: &[&["choices", "0", "message", "tool_calls"], &["tool_calls"]],
    what: "`tool_calls`",
    call: |call| Some(call),
    function: |call| call.get("function").unwrap_or(&Value::Null),
    ids: &["id"],
    arguments: "arguments",
    decode: string_arguments,
};

const OPENAI_RESPONSES: Layout = Layout {
    paths: &[&["output"]],
    what: "`output` items",
    call: |item| of_type(item, "function_call"),
    function: |call| call,
    ids: &["call_id", "id"],
    arguments: "arguments",
    decode: string_arguments,
};

const ANTHROPIC: Layout = Layout {
    paths: &[&["content"]],
    what: "`content` blocks",
    call: |block| of_type(block, "tool_use"),
    function: |call| call,
    ids: &["id"],
    arguments: "input",
    decode: object_arguments,
};

const GEMINI: Layout = Layout {
    paths: &[&["candidates", "0", "content", "parts"], &["parts"]],
    what: "`parts`",
    call: |part| part.get("functionCall"),
    function: |call| call,
    ids: &["id"],
    arguments: "args",
    decode: integral_doubles,
};
