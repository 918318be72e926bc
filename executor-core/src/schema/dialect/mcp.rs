//! MCP `tools/list`: the canonical schema itself. MCP 2025-06-18 and 2025-11-25 require an
//! object at the root of both schemas, so a non-object result schema is wrapped as
//! `{"type":"object","properties":{"result":S},"required":["result"]}` with its `$defs` moved
//! to the wrapper's root (and the result travels as `{"result": value}`). Nothing is lost.

use serde_json::{Map, Value};

use super::transformed::{Transformed, object_root};

/// The property that carries a non-object result.
pub(crate) const RESULT_KEY: &str = "result";

pub(super) fn transform(canonical: &Value, input: bool) -> Transformed {
    let schema = if input || canonical.get("type").and_then(Value::as_str) == Some("object") {
        Value::Object(object_root(canonical))
    } else {
        Value::Object(wrap_output(canonical))
    };
    Transformed {
        schema,
        strict: false,
        losses: Vec::new(),
        absent_when_null: Vec::new(),
        renamed_arguments: Vec::new(),
    }
}

/// Wraps a non-object output schema as `{"result": schema}`, hoisting `$defs` to the root.
pub(crate) fn wrap_output(schema: &Value) -> Map<String, Value> {
    let mut inner = schema.clone();
    let defs = inner.as_object_mut().and_then(|o| o.remove("$defs"));
    let mut properties = Map::new();
    properties.insert(RESULT_KEY.into(), inner);
    let mut root = Map::new();
    root.insert("type".into(), "object".into());
    root.insert("properties".into(), Value::Object(properties));
    root.insert("required".into(), Value::Array(vec![RESULT_KEY.into()]));
    if let Some(defs) = defs {
        root.insert("$defs".into(), defs);
    }
    root
}
