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

use std::fmt;

use serde_json::{Map, Value};

use super::Provider;
use crate::ToolFailure;
use crate::schema::dialect::integral_floats_to_integers;

/// One tool call, as the provider sent it.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolCall {
    /// The provider's call id, echoed in the answer (Gemini may send none).
    pub id: Option<String>,
    /// The tool's name as the provider knows it.
    pub name: String,
    /// The arguments object, or why it could not be read.
    pub arguments: Result<Value, ToolFailure>,
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

/// The tool calls in `response`, in the order sent.
pub(super) fn parse(provider: Provider, response: &Value) -> Result<Vec<ToolCall>, CallsError> {
    match provider {
        Provider::OpenAiChat => openai_chat(response),
        Provider::OpenAiResponses => openai_responses(response),
        Provider::Anthropic | Provider::AnthropicStrict => anthropic(response),
        Provider::Gemini | Provider::GeminiJsonSchema => gemini(response),
        Provider::Mcp => Err(CallsError(
            "MCP tool calls are served by `McpServer`, not answered here".to_owned(),
        )),
    }
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
fn string_arguments(raw: Option<&Value>) -> Result<Value, ToolFailure> {
    match raw {
        None | Some(Value::Null) => Ok(Value::Object(Map::new())),
        Some(Value::String(s)) if blank(s) => Ok(Value::Object(Map::new())),
        Some(Value::String(s)) => serde_json::from_str(s).map_err(|e| {
            ToolFailure::invalid_arguments(format!("arguments: not valid JSON ({e})"))
        }),
        // Some OpenAI-compatible servers send the object itself.
        Some(other) => Ok(other.clone()),
    }
}

/// Whether `s` is empty or only whitespace. Arguments nearly always start with `{`, which
/// settles it without `trim`'s character decoding (measured in BENCHMARKS.md).
#[inline]
fn blank(s: &str) -> bool {
    match s.as_bytes().first() {
        None => true,
        Some(&b) if b.is_ascii() && !char::from(b).is_whitespace() => false,
        Some(_) => s.trim().is_empty(),
    }
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
    string_arguments: bool,
}

fn read(response: &Value, layout: &Layout) -> Result<Vec<ToolCall>, CallsError> {
    let items = list(response, layout.paths, layout.what)?;
    items
        .iter()
        .filter_map(layout.call)
        .map(|call| {
            let function = (layout.function)(call);
            let name = text(function, "name").ok_or_else(|| missing(layout.what, call))?;
            let raw = function.get(layout.arguments);
            let arguments = if layout.string_arguments {
                string_arguments(raw)
            } else {
                object_arguments(raw)
            };
            Ok(ToolCall {
                id: layout
                    .ids
                    .iter()
                    .find_map(|k| text(call, k))
                    .map(str::to_owned),
                name: name.to_owned(),
                arguments,
            })
        })
        .collect()
}

fn of_type<'a>(item: &'a Value, kind: &str) -> Option<&'a Value> {
    (text(item, "type") == Some(kind)).then_some(item)
}

fn openai_chat(response: &Value) -> Result<Vec<ToolCall>, CallsError> {
    read(
        response,
        &Layout {
            paths: &[&["choices", "0", "message", "tool_calls"], &["tool_calls"]],
            what: "`tool_calls`",
            call: |call| Some(call),
            function: |call| call.get("function").unwrap_or(&Value::Null),
            ids: &["id"],
            arguments: "arguments",
            string_arguments: true,
        },
    )
}

fn openai_responses(response: &Value) -> Result<Vec<ToolCall>, CallsError> {
    read(
        response,
        &Layout {
            paths: &[&["output"]],
            what: "`output` items",
            call: |item| of_type(item, "function_call"),
            function: |call| call,
            ids: &["call_id", "id"],
            arguments: "arguments",
            string_arguments: true,
        },
    )
}

fn object_arguments(raw: Option<&Value>) -> Result<Value, ToolFailure> {
    match raw {
        None | Some(Value::Null) => Ok(Value::Object(Map::new())),
        Some(args @ Value::Object(_)) => Ok(args.clone()),
        Some(other) => Err(ToolFailure::invalid_arguments(format!(
            "arguments: expected an object, got {}",
            crate::tool::call::args::describe(other)
        ))),
    }
}

fn anthropic(response: &Value) -> Result<Vec<ToolCall>, CallsError> {
    read(
        response,
        &Layout {
            paths: &[&["content"]],
            what: "`content` blocks",
            call: |block| of_type(block, "tool_use"),
            function: |call| call,
            ids: &["id"],
            arguments: "input",
            string_arguments: false,
        },
    )
}

fn gemini(response: &Value) -> Result<Vec<ToolCall>, CallsError> {
    let mut calls = read(
        response,
        &Layout {
            paths: &[&["candidates", "0", "content", "parts"], &["parts"]],
            what: "`parts`",
            call: |part| part.get("functionCall"),
            function: |call| call,
            ids: &["id"],
            arguments: "args",
            string_arguments: false,
        },
    )?;
    // Gemini's numbers are doubles (protobuf `Struct`): `2.0` for an integer.
    for call in &mut calls {
        if let Ok(args) = &mut call.arguments {
            integral_floats_to_integers(args);
        }
    }
    Ok(calls)
}
