//! OpenAI: Chat Completions ([`CHAT`]) and Responses ([`RESPONSES`]), at every stage.
//!
//! | stage | Chat Completions | Responses |
//! |---|---|---|
//! | names | `^[A-Za-z0-9_-]{1,64}$` | the same |
//! | definition | `{"type":"function","function":{name, description, parameters, strict}}` | `{"type":"function", name, description, parameters, strict}` |
//! | schemas | the strict dialect ([`Dialect::OpenAiStrict`]); no output schema | the same |
//! | calls | `choices[0].message.tool_calls[]`: `{id, function: {name, arguments}}` | `output[]` items with `type: "function_call"`: `{call_id, name, arguments}` |
//! | arguments | a JSON **string**; `null` for an optional argument means "not given" | the same |
//! | answer | one `{"role":"tool","tool_call_id","content"}` message per call | one `{"type":"function_call_output","call_id","output"}` item per call |
//!
//! [`Dialect::OpenAiStrict`]: crate::schema::dialect::Dialect::OpenAiStrict

use std::borrow::Cow;

use serde_json::{Map, Value, json};

use super::definitions::ToolCall;
use super::wire::{Layout, NAMES_64, Wire, id, named, object, of_type, text};
use crate::failure::ToolFailure;
use crate::schema::dialect::Transformed;
use crate::tool::ToolSpec;

/// OpenAI Chat Completions.
pub(super) const CHAT: Wire = Wire {
    names: NAMES_64,
    declares_output: false,
    declare: declare_chat,
    tools: Value::Array,
    request_limits: None,
    calls: Ok(&CHAT_CALLS),
    answer: answer_chat,
    group: None,
};

/// OpenAI Responses.
pub(super) const RESPONSES: Wire = Wire {
    names: NAMES_64,
    declares_output: false,
    declare: declare_responses,
    tools: Value::Array,
    request_limits: None,
    calls: Ok(&RESPONSES_CALLS),
    answer: answer_responses,
    group: None,
};

/// `name`, `description`, `parameters` and `strict`.
fn function(spec: &ToolSpec, name: &str, input: &Transformed) -> Map<String, Value> {
    let mut tool = named(name, None, &spec.description);
    tool.insert("parameters".into(), input.schema.clone());
    tool.insert("strict".into(), input.strict.into());
    tool
}

fn declare_chat(spec: &ToolSpec, name: &str, input: &Transformed, _: Option<Value>) -> Value {
    json!({ "type": "function", "function": function(spec, name, input) })
}

fn declare_responses(spec: &ToolSpec, name: &str, input: &Transformed, _: Option<Value>) -> Value {
    let mut typed = Map::new();
    typed.insert("type".into(), "function".into());
    typed.extend(function(spec, name, input));
    Value::Object(typed)
}

const CHAT_CALLS: Layout = Layout {
    paths: &[&["choices", "0", "message", "tool_calls"], &["tool_calls"]],
    what: "`tool_calls`",
    call: |call| Some(call),
    function: |call| call.get("function").unwrap_or(&Value::Null),
    ids: &["id"],
    arguments: "arguments",
    decode: string_arguments,
};

const RESPONSES_CALLS: Layout = Layout {
    paths: &[&["output"]],
    what: "`output` items",
    call: |item| of_type(item, "function_call"),
    function: |call| call,
    ids: &["call_id", "id"],
    arguments: "arguments",
    decode: string_arguments,
};

/// Arguments sent as a JSON string.
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

fn answer_chat(call: &ToolCall<'_>, result: Result<Cow<'_, Value>, &ToolFailure>) -> Value {
    object([
        ("role", "tool".into()),
        ("tool_call_id", id(call)),
        ("content", text(result).into()),
    ])
}

fn answer_responses(call: &ToolCall<'_>, result: Result<Cow<'_, Value>, &ToolFailure>) -> Value {
    object([
        ("type", "function_call_output".into()),
        ("call_id", id(call)),
        ("output", text(result).into()),
    ])
}
