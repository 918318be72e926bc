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

/// The array at the first path that holds one, or `value` itself when it is an array.
fn list<'a>(value: &'a Value, paths: &[&[&str]], what: &str) -> Result<&'a [Value], CallsError> {
    if let Value::Array(items) = value {
        return Ok(items);
    }
    for path in paths {
        let mut at = value;
        for key in *path {
            at = match key.parse::<usize>() {
                Ok(i) => at.get(i),
                Err(_) => at.get(*key),
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
    CallsError(format!("a {what} without a string `name`: {item}"))
}

/// Arguments sent as a JSON string (OpenAI).
fn string_arguments(raw: Option<&Value>) -> Result<Value, ToolFailure> {
    match raw {
        None | Some(Value::Null) => Ok(Value::Object(Map::new())),
        Some(Value::String(s)) if s.trim().is_empty() => Ok(Value::Object(Map::new())),
        Some(Value::String(s)) => serde_json::from_str(s).map_err(|e| {
            ToolFailure::invalid_arguments(format!("arguments: not valid JSON ({e})"))
        }),
        // Some OpenAI-compatible servers send the object itself.
        Some(other) => Ok(other.clone()),
    }
}

fn openai_chat(response: &Value) -> Result<Vec<ToolCall>, CallsError> {
    let calls = list(
        response,
        &[&["choices", "0", "message", "tool_calls"], &["tool_calls"]],
        "`tool_calls`",
    )?;
    calls
        .iter()
        .map(|call| {
            let function = call.get("function").unwrap_or(&Value::Null);
            let name = text(function, "name").ok_or_else(|| missing("tool call", call))?;
            Ok(ToolCall {
                id: text(call, "id").map(str::to_owned),
                name: name.to_owned(),
                arguments: string_arguments(function.get("arguments")),
            })
        })
        .collect()
}

fn openai_responses(response: &Value) -> Result<Vec<ToolCall>, CallsError> {
    let items = list(response, &[&["output"]], "`output` items")?;
    items
        .iter()
        .filter(|item| text(item, "type") == Some("function_call"))
        .map(|item| {
            let name = text(item, "name").ok_or_else(|| missing("function_call", item))?;
            Ok(ToolCall {
                id: text(item, "call_id")
                    .or_else(|| text(item, "id"))
                    .map(str::to_owned),
                name: name.to_owned(),
                arguments: string_arguments(item.get("arguments")),
            })
        })
        .collect()
}

fn object_arguments(raw: Option<&Value>) -> Result<Value, ToolFailure> {
    match raw {
        None | Some(Value::Null) => Ok(Value::Object(Map::new())),
        Some(args @ Value::Object(_)) => Ok(args.clone()),
        Some(other) => Err(ToolFailure::invalid_arguments(format!(
            "arguments: expected an object, got {}",
            crate::schema::args::describe(other)
        ))),
    }
}

fn anthropic(response: &Value) -> Result<Vec<ToolCall>, CallsError> {
    let blocks = list(response, &[&["content"]], "`content` blocks")?;
    blocks
        .iter()
        .filter(|block| text(block, "type") == Some("tool_use"))
        .map(|block| {
            let name = text(block, "name").ok_or_else(|| missing("tool_use block", block))?;
            Ok(ToolCall {
                id: text(block, "id").map(str::to_owned),
                name: name.to_owned(),
                arguments: object_arguments(block.get("input")),
            })
        })
        .collect()
}

fn gemini(response: &Value) -> Result<Vec<ToolCall>, CallsError> {
    let parts = list(
        response,
        &[&["candidates", "0", "content", "parts"], &["parts"]],
        "`parts`",
    )?;
    parts
        .iter()
        .filter_map(|part| part.get("functionCall"))
        .map(|call| {
            let name = text(call, "name").ok_or_else(|| missing("functionCall", call))?;
            let mut arguments = object_arguments(call.get("args"));
            // Gemini's numbers are doubles (protobuf `Struct`): `2.0` for an integer.
            if let Ok(args) = &mut arguments {
                integral_floats_to_integers(args);
            }
            Ok(ToolCall {
                id: text(call, "id").map(str::to_owned),
                name: name.to_owned(),
                arguments,
            })
        })
        .collect()
}
