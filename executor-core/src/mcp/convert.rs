//! `ToolSpec` ⇄ MCP `Tool`, and tool outcomes → `CallToolResult`.
//!
//! MCP (2025-06-18 and 2025-11-25) requires an object at the root of both schemas and of
//! `structuredContent`. A tool whose output is not an object (`add` returns an integer) is
//! listed with the wrapped schema `{"type":"object","properties":{"result":S},"required":["result"]}`
//! and answers `structuredContent: {"result": value}`; its `$defs` move to the wrapper's root so
//! `$ref`s keep resolving.

use std::borrow::Cow;
use std::sync::Arc;

use rmcp::model::{
    CallToolResult, ContentBlock, JsonObject, MetaObject, Tool, ToolAnnotations as McpAnnotations,
};
use serde_json::{Map, Value, json};

use crate::tool::ToolSpec;

pub(crate) use crate::schema::dialect::RESULT_KEY;

/// One listed tool and how its results are shaped.
#[derive(Debug, Clone)]
pub(crate) struct Listed {
    pub tool: Tool,
    pub wrap: Shape,
}

/// How a tool's results become a `CallToolResult`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Shape {
    /// `structuredContent` is the value (an object).
    Plain,
    /// `structuredContent` is `{"result": value}`.
    Wrapped,
    /// The value is content blocks (one, or an array), sent as `content` with this MCP type
    /// when a block lacks its own (`"any"`: each carries it); no `structuredContent`.
    Content(Box<str>),
}

/// Whether `schema`'s root is an object schema (`"type": "object"`).
pub(crate) fn is_object_schema(schema: &Value) -> bool {
    schema.get("type").and_then(Value::as_str) == Some("object")
}

/// The input schema as MCP wants it: an object whose root says `type: object`.
fn input_schema(schema: &Value) -> JsonObject {
    // A tool without a usable schema takes any object.
    let mut map = schema.as_object().cloned().unwrap_or_default();
    map.entry("type").or_insert_with(|| "object".into());
    map
}

/// Wraps a non-object output schema as `{"result": schema}`, hoisting `$defs` to the root
/// (the MCP schema dialect's rule, [`Dialect::Mcp`](crate::schema::dialect::Dialect::Mcp)).
pub(crate) fn wrap_output_schema(schema: &Value) -> JsonObject {
    crate::schema::dialect::wrap_output(schema)
}

fn annotations(spec: &ToolSpec) -> Option<McpAnnotations> {
    let a = &spec.annotations;
    if *a == crate::tool::ToolAnnotations::default() {
        return None;
    }
    let mut out = McpAnnotations::new();
    out.title.clone_from(&a.title);
    out.read_only_hint = a.read_only;
    out.destructive_hint = a.destructive;
    out.idempotent_hint = a.idempotent;
    out.open_world_hint = a.open_world;
    Some(out)
}

/// The tool `_meta` key for the failure codes a tool can produce (an array of strings).
pub const FAILURE_CODES_META: &str = "executor/failureCodes";

/// The tool `_meta` key for the tool's own time limit, in milliseconds (an integer).
pub const TIMEOUT_META: &str = "executor/timeoutMs";

/// The `tools/call` request `_meta` key for the caller's 1-based attempt number (an integer):
/// [`McpServer`](super::McpServer) gives it to the tool as
/// [`ToolContext::attempt`](crate::tool::ToolContext::attempt), and
/// [`McpToolExecutor`](super::McpToolExecutor) sends it from its caller's context. The same
/// name as the A2A data part's metadata key.
pub const ATTEMPT_META: &str = "executor/attempt";

/// The `tools/call` request `_meta` key for the caller's idempotency key (a string), the same
/// on every attempt of one call: [`McpServer`](super::McpServer) gives it to the tool as
/// [`ToolContext::idempotency_key`](crate::tool::ToolContext::idempotency_key), and
/// [`McpToolExecutor`](super::McpToolExecutor) sends it from its caller's context.
pub const IDEMPOTENCY_KEY_META: &str = "executor/idempotencyKey";

/// The tool `_meta` for what a spec says beyond MCP's tool fields: its failure codes and time
/// limit, or nothing when it has neither.
fn tool_meta(spec: &ToolSpec) -> Option<MetaObject> {
    if spec.failure_codes.is_empty() && spec.timeout.is_none() {
        return None;
    }
    let mut meta = MetaObject::new();
    if !spec.failure_codes.is_empty() {
        meta.0
            .insert(FAILURE_CODES_META.into(), json!(spec.failure_codes));
    }
    if let Some(timeout) = spec.timeout {
        let ms = u64::try_from(timeout.as_millis()).unwrap_or(u64::MAX);
        meta.0.insert(TIMEOUT_META.into(), json!(ms));
    }
    Some(meta)
}

/// The caller's attempt (1 when not given) and idempotency key from a request's `_meta`. A
/// value of the wrong type is refused (the message says which), not ignored: a tool must not
/// run believing it has no key when its caller sent one.
pub(crate) fn caller_of(meta: &JsonObject) -> Result<(u32, Option<String>), String> {
    let attempt = match meta.get(ATTEMPT_META) {
        None | Some(Value::Null) => 1,
        Some(value) => value
            .as_u64()
            .and_then(|n| u32::try_from(n).ok())
            .filter(|&n| n >= 1)
            .ok_or_else(|| {
                format!("_meta `{ATTEMPT_META}` must be an integer from 1, got {value}")
            })?,
    };
    let key = match meta.get(IDEMPOTENCY_KEY_META) {
        None | Some(Value::Null) => None,
        Some(Value::String(key)) => Some(key.clone()),
        Some(other) => {
            return Err(format!(
                "_meta `{IDEMPOTENCY_KEY_META}` must be a string, got {other}"
            ));
        }
    };
    Ok((attempt, key))
}

/// The request `_meta` entries that carry a caller's attempt and key: for a call with a key or
/// past its first attempt; nothing for a plain first call.
pub(crate) fn caller_meta(attempt: u32, key: Option<&str>) -> Option<JsonObject> {
    if key.is_none() && attempt <= 1 {
        return None;
    }
    let mut meta = JsonObject::new();
    meta.insert(ATTEMPT_META.into(), attempt.into());
    if let Some(key) = key {
        meta.insert(IDEMPOTENCY_KEY_META.into(), key.into());
    }
    Some(meta)
}

/// The MCP tool for `spec`, built once per spec list.
pub(crate) fn listed(spec: &ToolSpec) -> Listed {
    let description = (!spec.description.is_empty()).then(|| Cow::Owned(spec.description.clone()));
    let mut tool = Tool::new_with_raw(
        spec.name.clone(),
        description,
        Arc::new(input_schema(&spec.input_schema)),
    );
    let wrap = match &spec.output_schema {
        Some(schema) if let Some(tag) = content_tag(schema) => Shape::Content(tag.into()),
        Some(schema) if is_object_schema(schema) => {
            if let Value::Object(map) = schema {
                tool = tool.with_raw_output_schema(Arc::new(map.clone()));
            }
            Shape::Plain
        }
        Some(schema) => {
            tool = tool.with_raw_output_schema(Arc::new(wrap_output_schema(schema)));
            Shape::Wrapped
        }
        None => Shape::Plain,
    };
    if let Some(title) = &spec.annotations.title {
        tool = tool.with_title(title.clone());
    }
    if let Some(a) = annotations(spec) {
        tool = tool.with_annotations(a);
    }
    if let Some(meta) = tool_meta(spec) {
        tool = tool.with_meta(meta);
    }
    if !spec.icons.is_empty() {
        // Both are MCP's `Icon`; a shape rmcp cannot read is left out, not sent half.
        tool.icons = serde_json::to_value(&spec.icons)
            .and_then(serde_json::from_value)
            .ok();
    }
    Listed { tool, wrap }
}

/// The text block for a value: strings as they are, anything else as compact JSON.
///
/// Written by `serde_json::to_string` (one buffer of 128 bytes to start) rather than
/// `Display` (`to_string()` starts empty and grows through 8, 16, 32, 64 bytes): a short
/// result is one allocation instead of four.
pub(crate) fn text_of(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        // Serializing a `Value` cannot fail (its keys are strings); `Display` stays the
        // fallback rather than a panic.
        other => serde_json::to_string(other).unwrap_or_else(|_| other.to_string()),
    }
}

/// A successful call: `structuredContent` (wrapped when the tool's listing says so, or when a
/// tool with no output schema returns a non-object) plus the same value as a text block; or,
/// for a tool returning content, its blocks.
pub(crate) fn success(output: Value, shape: Option<Shape>) -> CallToolResult {
    let wrap = match shape {
        Some(Shape::Content(tag)) => return content_result(output, &tag),
        Some(Shape::Wrapped) => true,
        Some(Shape::Plain) => false,
        None => !output.is_object(),
    };
    let text = text_of(&output);
    let structured = if wrap {
        let mut map = Map::new();
        map.insert(RESULT_KEY.into(), output);
        Value::Object(map)
    } else {
        output
    };
    let mut result = CallToolResult::success(vec![ContentBlock::text(text)]);
    result.structured_content = Some(structured);
    result
}

/// Whether an output schema says its value is content (one block or an array of blocks,
/// [`CONTENT_SCHEMA_KEY`](crate::tool::CONTENT_SCHEMA_KEY)), and the blocks' MCP `type`
/// (`"any"` when each block carries its own).
pub(crate) fn content_tag(schema: &Value) -> Option<&str> {
    fn tag(s: &Value) -> Option<&str> {
        s.get(crate::tool::CONTENT_SCHEMA_KEY)
            .and_then(Value::as_str)
    }
    if let Some(t) = tag(schema) {
        return Some(t);
    }
    if schema.get("type").and_then(Value::as_str) == Some("array") {
        return schema.get("items").and_then(tag);
    }
    None
}

/// The blocks of a content result: one block or an array of them, as a list.
fn blocks_of(output: Value) -> Vec<Value> {
    match output {
        Value::Array(items) => items,
        one => vec![one],
    }
}

/// A block as MCP wants it: a block type without its own `type` (an `Image`) gets `tag`.
fn tag_block(block: Value, tag: &str) -> Value {
    match block {
        Value::Object(mut map) if tag != "any" && !map.contains_key("type") => {
            map.insert("type".into(), tag.into());
            Value::Object(map)
        }
        other => other,
    }
}

/// A content result: the blocks as `content`. A block rmcp cannot read (a hand-written
/// executor's JSON under a content schema) is sent as its JSON text, not dropped.
fn content_result(output: Value, tag: &str) -> CallToolResult {
    let blocks = blocks_of(output)
        .into_iter()
        .map(|block| {
            let block = tag_block(block, tag);
            serde_json::from_value::<ContentBlock>(block.clone())
                .unwrap_or_else(|_| ContentBlock::text(block.to_string()))
        })
        .collect();
    CallToolResult::success(blocks)
}

/// The `_meta` key under which a failed call carries the failure's details.
pub(crate) const FAILURE_META_KEY: &str = "executor/failure";

/// A failed call a model can read: `isError: true`, the message as the first text block, and
/// the failure's details (`{"code", "kind", "classification", …}`) both as a second text block
/// (compact JSON, for a model) and under `_meta["executor/failure"]` (for programs). Never
/// `structuredContent`: that must match the tool's output schema, which describes successes,
/// and clients that check it (the MCP Inspector) would reject the result instead of reporting
/// the tool's error.
pub(crate) fn tool_error(text: String, details: Value) -> CallToolResult {
    let detail_text = details.to_string();
    let mut result = CallToolResult::error(vec![
        ContentBlock::text(text),
        ContentBlock::text(detail_text),
    ]);
    let mut meta = MetaObject::new();
    meta.0.insert(FAILURE_META_KEY.into(), details);
    result.meta = Some(meta);
    result
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn non_object_output_schemas_are_wrapped_with_defs_hoisted() {
        let schema = json!({"$ref": "#/$defs/Unit", "$defs": {"Unit": {"enum": ["c", "f"]}}});
        let wrapped = Value::Object(wrap_output_schema(&schema));
        assert_eq!(
            wrapped,
            json!({
                "type": "object",
                "properties": {"result": {"$ref": "#/$defs/Unit"}},
                "required": ["result"],
                "$defs": {"Unit": {"enum": ["c", "f"]}}
            })
        );
    }

    #[test]
    fn success_wraps_as_listed() {
        let r = success(json!(42), Some(Shape::Wrapped));
        assert_eq!(r.structured_content, Some(json!({"result": 42})));
        let r = success(json!({"a": 1}), Some(Shape::Plain));
        assert_eq!(r.structured_content, Some(json!({"a": 1})));
        let r = success(json!("hi"), None);
        assert_eq!(r.structured_content, Some(json!({"result": "hi"})));
        assert_eq!(r.content[0].as_text().map(|t| t.text.as_str()), Some("hi"));
    }

    #[test]
    fn failures_carry_details_in_meta_and_text_never_in_structured_content() {
        let details = json!({"code": "refused", "kind": "tool", "classification": "terminal"});
        let r = tool_error("not today".into(), details.clone());
        assert_eq!(
            serde_json::to_value(&r).unwrap(),
            json!({
                "content": [
                    {"type": "text", "text": "not today"},
                    {"type": "text", "text": details.to_string()}
                ],
                "isError": true,
                "_meta": {"executor/failure": details},
                // rmcp's constructors say `complete`; its handler drops it for older protocols.
                "resultType": "complete"
            })
        );
    }

    #[test]
    fn failure_codes_and_timeouts_are_listed_in_the_tools_meta() {
        let spec = ToolSpec::new("book", "", json!({"type": "object"}))
            .with_failure_codes(["busy", "sold_out"])
            .with_timeout(std::time::Duration::from_secs(5));
        let tool = serde_json::to_value(listed(&spec).tool).unwrap();
        assert_eq!(
            tool["_meta"],
            json!({"executor/failureCodes": ["busy", "sold_out"], "executor/timeoutMs": 5000})
        );
        let plain = serde_json::to_value(listed(&ToolSpec::new("t", "", json!({}))).tool).unwrap();
        assert_eq!(plain.get("_meta"), None);
    }

    #[test]
    fn the_callers_attempt_and_key_round_trip_through_request_meta() {
        assert_eq!(caller_meta(1, None), None);
        let meta = caller_meta(2, Some("order-42")).unwrap();
        assert_eq!(caller_of(&meta), Ok((2, Some("order-42".to_owned()))));
        assert_eq!(caller_of(&JsonObject::new()), Ok((1, None)));
        let bad: JsonObject = serde_json::from_value(json!({"executor/attempt": "2"})).unwrap();
        assert_eq!(
            caller_of(&bad),
            Err("_meta `executor/attempt` must be an integer from 1, got \"2\"".to_owned())
        );
    }

    #[test]
    fn content_results_are_blocks_without_structured_content() {
        use crate::tool::{Content, Image, ResourceContents};
        let schema = serde_json::to_value(schemars::schema_for!(Vec<Content>)).unwrap();
        let spec = ToolSpec::new("mixed", "", json!({"type": "object"})).with_output_schema(schema);
        let listed = listed(&spec);
        assert_eq!(listed.wrap, Shape::Content("any".into()));
        assert!(listed.tool.output_schema.is_none());
        let output = serde_json::to_value(vec![
            Content::text("Multiple content types test:"),
            Image::from_base64("AA==", "image/png").into(),
            ResourceContents::text("test://r", "application/json", "{}").into(),
        ])
        .unwrap();
        let result = serde_json::to_value(success(output, Some(listed.wrap))).unwrap();
        assert_eq!(
            result,
            json!({
                "content": [
                    {"type": "text", "text": "Multiple content types test:"},
                    {"type": "image", "data": "AA==", "mimeType": "image/png"},
                    {"type": "resource", "resource": {"uri": "test://r", "mimeType": "application/json", "text": "{}"}}
                ],
                "isError": false,
                "resultType": "complete"
            })
        );
        // One bare block type: tagged from its schema.
        let image = serde_json::to_value(Image::from_base64("AA==", "image/png")).unwrap();
        let result =
            serde_json::to_value(success(image, Some(Shape::Content("image".into())))).unwrap();
        assert_eq!(
            result["content"],
            json!([{"type": "image", "data": "AA==", "mimeType": "image/png"}])
        );
    }

    #[test]
    fn content_schemas_are_marked_and_recognized() {
        let one = serde_json::to_value(schemars::schema_for!(crate::tool::Image)).unwrap();
        assert_eq!(content_tag(&one), Some("image"));
        let many = serde_json::to_value(schemars::schema_for!(Vec<crate::tool::Content>)).unwrap();
        assert_eq!(content_tag(&many), Some("any"));
        let plain = serde_json::to_value(schemars::schema_for!(Vec<String>)).unwrap();
        assert_eq!(content_tag(&plain), None);
    }

    #[test]
    fn a_bare_block_type_gets_its_tag() {
        let block =
            serde_json::to_value(crate::tool::Image::from_base64("AA==", "image/png")).unwrap();
        assert_eq!(
            tag_block(block, "image"),
            json!({"type": "image", "data": "AA==", "mimeType": "image/png"})
        );
    }

    #[test]
    fn input_schema_root_is_an_object() {
        let spec = ToolSpec::new("t", "", json!(true));
        assert_eq!(
            Value::Object((*listed(&spec).tool.input_schema).clone()),
            json!({"type": "object"})
        );
    }
}
