//! Anthropic Messages: the standard tools ([`STANDARD`]) and strict tool use ([`STRICT`]), at
//! every stage.
//!
//! | stage | behaviour |
//! |---|---|
//! | names | `^[A-Za-z0-9_-]{1,64}$` |
//! | definition | `{name, description, input_schema}`; strict: `"strict": true` on every tool that can be strict |
//! | schemas | the standard or strict dialect ([`Dialect::Anthropic`], [`Dialect::AnthropicStrict`]); no output schema |
//! | request | strict: at most 20 strict tools, 24 optional and 16 union-typed parameters in them, else a [`SchemaRole::Request`](super::definitions::SchemaRole::Request) loss |
//! | calls | `content[]` blocks with `type: "tool_use"`: `{id, name, input}` |
//! | arguments | an object |
//! | answer | one user message of `{"type":"tool_result","tool_use_id","content","is_error"}` blocks |
//!
//! [`Dialect::Anthropic`]: crate::schema::dialect::Dialect::Anthropic
//! [`Dialect::AnthropicStrict`]: crate::schema::dialect::Dialect::AnthropicStrict

use std::borrow::Cow;

use serde_json::Value;

use super::definitions::ToolCall;
use super::definitions::{SchemaRole, ToolLoss};
use super::wire::{Layout, NAMES_64, Wire, id, named, object, object_arguments, of_type, text};
use crate::failure::ToolFailure;
use crate::schema::dialect::Transformed;
use crate::tool::ToolSpec;

/// Anthropic's standard (non-strict) tools.
pub(super) const STANDARD: Wire = Wire {
    names: NAMES_64,
    declares_output: false,
    declare: declare_standard,
    tools: Value::Array,
    request_limits: None,
    calls: Ok(&CALLS),
    answer,
    group: Some("content"),
};

/// Anthropic with strict tool use.
pub(super) const STRICT: Wire = Wire {
    declare: declare_strict,
    request_limits: Some(request_limits),
    ..STANDARD
};

/// Anthropic's per-request limits for strict tools (`docs/providers.md` §5.2).
const ANTHROPIC_STRICT_TOOLS: usize = 20;
const ANTHROPIC_OPTIONAL_PARAMETERS: usize = 24;
const ANTHROPIC_UNION_PARAMETERS: usize = 16;

fn declare_standard(spec: &ToolSpec, name: &str, input: &Transformed, _: Option<Value>) -> Value {
    let mut tool = named(name, None, &spec.description);
    tool.insert("input_schema".into(), input.schema.clone());
    Value::Object(tool)
}

fn declare_strict(
    spec: &ToolSpec,
    name: &str,
    input: &Transformed,
    output: Option<Value>,
) -> Value {
    let mut tool = declare_standard(spec, name, input, output);
    if input.strict
        && let Value::Object(fields) = &mut tool
    {
        fields.insert("strict".into(), true.into());
    }
    tool
}

/// Anthropic counts strict tools, optional parameters and union-typed parameters per request.
fn request_limits(strict: &[Value], losses: &mut Vec<ToolLoss>) {
    let mut optional = 0;
    let mut unions = 0;
    for schema in strict {
        let required: Vec<&Value> = schema
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().collect())
            .unwrap_or_default();
        let props = schema.get("properties").and_then(Value::as_object);
        for (name, prop) in props.into_iter().flatten() {
            optional += usize::from(!required.iter().any(|r| *r == name));
            unions += usize::from(
                prop.get("anyOf").is_some() || prop.get("type").is_some_and(Value::is_array),
            );
        }
    }
    let checks = [
        (strict.len(), ANTHROPIC_STRICT_TOOLS, "strict tools"),
        (
            optional,
            ANTHROPIC_OPTIONAL_PARAMETERS,
            "optional parameters in strict tools",
        ),
        (
            unions,
            ANTHROPIC_UNION_PARAMETERS,
            "union-typed parameters in strict tools",
        ),
    ];
    for (count, limit, what) in checks {
        if count > limit {
            losses.push(ToolLoss {
                tool: String::new(),
                schema: SchemaRole::Request,
                pointer: String::new(),
                reason: format!(
                    "{count} {what}: Anthropic accepts at most {limit} per request (\"schema is too complex\")"
                ),
            });
        }
    }
}

const CALLS: Layout = Layout {
    paths: &[&["content"]],
    what: "`content` blocks",
    call: |block| of_type(block, "tool_use"),
    function: |call| call,
    ids: &["id"],
    arguments: "input",
    decode: object_arguments,
};

fn answer(call: &ToolCall<'_>, result: Result<Cow<'_, Value>, &ToolFailure>) -> Value {
    let is_error = result.is_err();
    object([
        ("type", "tool_result".into()),
        ("tool_use_id", id(call)),
        ("content", text(result).into()),
        ("is_error", is_error.into()),
    ])
}
