//! A server's `tools/list` as specs, and the routes from the names callers use to the
//! server's own.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use rmcp::model::Tool;
use serde_json::Value;

use super::McpServerConfig;
use crate::mcp::convert::{FAILURE_CODES_META, RESULT_KEY, TIMEOUT_META, is_object_schema};
use crate::tool::SpecList;
use crate::tool::{ToolAnnotations, ToolSpec};

/// How an exposed tool name reaches the server.
#[derive(Debug, Clone)]
pub(super) struct Route {
    pub(super) remote: String,
    /// The listed output schema is our `{"result": …}` wrapper: unwrap results.
    pub(super) unwrap: bool,
}

pub(super) struct Catalog {
    pub(super) specs: SpecList,
    pub(super) routes: HashMap<String, Route>,
    /// The protocol version of the connection the tools were listed on.
    pub(super) protocol_version: String,
}

impl Catalog {
    /// The catalog of `tools` as listed on a connection speaking `protocol_version`.
    pub(super) fn of(config: &McpServerConfig, tools: Vec<Tool>, protocol_version: String) -> Self {
        let prefix = format!("mcp_{}_", config.name);
        let mut specs = Vec::with_capacity(tools.len());
        let mut routes = HashMap::with_capacity(tools.len() * 2);
        for tool in tools {
            let remote = tool.name.to_string();
            let (spec, unwrap) = spec_of(&tool);
            let route = Route {
                remote: remote.clone(),
                unwrap,
            };
            let exposed = if config.prefixed {
                routes.insert(remote.clone(), route.clone());
                format!("{prefix}{remote}")
            } else {
                remote
            };
            routes.insert(exposed.clone(), route);
            specs.push(Arc::new(ToolSpec {
                name: exposed,
                ..spec
            }));
        }
        Self {
            specs: specs.into(),
            routes,
            protocol_version,
        }
    }
}

/// A listed MCP tool as a spec, and whether its results are `{"result": …}`-wrapped.
fn spec_of(tool: &Tool) -> (ToolSpec, bool) {
    let description = tool.description.as_deref().unwrap_or_default();
    let mut spec = ToolSpec::new(
        tool.name.to_string(),
        description,
        Value::Object((*tool.input_schema).clone()),
    );
    // A remote tool may ask (a task's `input_required`): its questions reach our caller.
    spec.asks_user = true;
    let mut unwrap = false;
    if let Some(schema) = &tool.output_schema {
        let schema = Value::Object((**schema).clone());
        unwrap = is_wrapper(&schema);
        spec.output_schema = Some(if unwrap {
            let mut inner = schema["properties"][RESULT_KEY].clone();
            if let (Some(defs), Value::Object(map)) = (schema.get("$defs"), &mut inner) {
                map.insert("$defs".into(), defs.clone());
            }
            inner
        } else {
            schema
        });
    }
    let mut annotations = ToolAnnotations {
        title: tool.title.clone(),
        ..ToolAnnotations::default()
    };
    if let Some(a) = &tool.annotations {
        annotations.title = annotations.title.or_else(|| a.title.clone());
        annotations.read_only = a.read_only_hint;
        annotations.destructive = a.destructive_hint;
        annotations.idempotent = a.idempotent_hint;
        annotations.open_world = a.open_world_hint;
    }
    spec.annotations = annotations;
    if let Some(icons) = &tool.icons {
        spec.icons = serde_json::to_value(icons)
            .and_then(serde_json::from_value)
            .unwrap_or_default();
    }
    // What one of our servers lists beyond MCP's fields; a malformed value is left out, as a
    // peer's listing is not ours to reject.
    if let Some(meta) = &tool.meta {
        if let Some(codes) = meta
            .0
            .get(FAILURE_CODES_META)
            .and_then(|c| serde_json::from_value::<Vec<String>>(c.clone()).ok())
        {
            spec.failure_codes = codes;
        }
        if let Some(ms) = meta.0.get(TIMEOUT_META).and_then(Value::as_u64) {
            spec.timeout = Some(Duration::from_millis(ms));
        }
    }
    (spec, unwrap)
}

/// `{"type":"object","properties":{"result":…},"required":["result"]}` and nothing else.
fn is_wrapper(schema: &Value) -> bool {
    let Some(map) = schema.as_object() else {
        return false;
    };
    is_object_schema(schema)
        && map
            .get("properties")
            .and_then(Value::as_object)
            .is_some_and(|p| p.len() == 1 && p.contains_key(RESULT_KEY))
        && map.get("required") == Some(&Value::Array(vec![RESULT_KEY.into()]))
        && map.keys().all(|k| {
            matches!(
                k.as_str(),
                "type" | "properties" | "required" | "$defs" | "title" | "description"
            )
        })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::tool::Icon;

    #[test]
    fn a_listed_tools_icons_reach_its_spec() {
        let tool: Tool = serde_json::from_value(json!({
            "name": "beep",
            "inputSchema": {"type": "object"},
            "icons": [{"src": "https://example.com/b.png", "mimeType": "image/png", "sizes": ["48x48"]}]
        }))
        .unwrap();
        let (spec, _) = spec_of(&tool);
        assert_eq!(
            spec.icons,
            [Icon::new("https://example.com/b.png")
                .with_mime_type("image/png")
                .with_sizes(["48x48"])]
        );
        // And back: our listing of that spec carries the same icons.
        let listed = serde_json::to_value(crate::mcp::convert::listed(&spec).tool).unwrap();
        assert_eq!(listed["icons"], serde_json::to_value(&tool.icons).unwrap());
    }
}
