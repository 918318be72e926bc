//! MCP `tools/list` ([`MCP`]): the definitions an MCP server lists. Its calls are served by
//! [`McpServer`](crate::mcp), not answered here.
//!
//! | stage | behaviour |
//! |---|---|
//! | names | `[A-Za-z0-9_.-]`, 1 to 128 characters |
//! | definition | `{name, title?, description, inputSchema, outputSchema?, annotations?}` |
//! | schemas | the MCP dialect ([`Dialect::Mcp`]), output schemas included |
//! | calls | none: a [`CallsError`](super::definitions::CallsError) |
//!
//! [`Dialect::Mcp`]: crate::schema::dialect::Dialect::Mcp

use serde_json::Value;

use super::gemini;
use super::wire::{Names, Wire, named};
use crate::schema::dialect::Transformed;
use crate::tool::ToolSpec;

/// MCP `tools/list`.
pub(super) const MCP: Wire = Wire {
    names: Names {
        max: 128,
        extra: &['_', '-', '.'],
        letter_first: false,
    },
    declares_output: true,
    declare,
    tools: Value::Array,
    request_limits: None,
    calls: Err("MCP tool calls are served by `McpServer`, not answered here"),
    // Only reached for calls handed to `Definitions::answer_calls`: a `functionResponse`.
    answer: gemini::function_response,
    group: Some("parts"),
};

fn declare(spec: &ToolSpec, name: &str, input: &Transformed, output: Option<Value>) -> Value {
    let title = spec.annotations.title.as_deref();
    let mut tool = named(name, title, &spec.description);
    tool.insert("inputSchema".into(), input.schema.clone());
    if let Some(schema) = output {
        tool.insert("outputSchema".into(), schema);
    }
    if let Ok(Value::Object(hints)) = serde_json::to_value(&spec.annotations)
        && !hints.is_empty()
    {
        tool.insert("annotations".into(), Value::Object(hints));
    }
    Value::Object(tool)
}
