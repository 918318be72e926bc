//! The provider rules of `docs/providers.md`, as code: each `check_*` returns every
//! violation in a schema (empty when it passes). Tests run every strict output and every
//! Gemini output through them.

#![allow(dead_code)] // each test file uses the checks it needs

use serde_json::{Map, Value};

/// Calls `f(pointer, node)` for every subschema of `schema`.
pub fn walk(schema: &Value, ptr: &str, f: &mut dyn FnMut(&str, &Map<String, Value>)) {
    let Some(map) = schema.as_object() else {
        return;
    };
    f(ptr, map);
    for key in ["properties", "$defs", "defs"] {
        if let Some(Value::Object(children)) = map.get(key) {
            for (name, child) in children {
                walk(child, &format!("{ptr}/{key}/{name}"), f);
            }
        }
    }
    for key in ["anyOf", "oneOf", "allOf", "prefixItems"] {
        if let Some(Value::Array(children)) = map.get(key) {
            for (i, child) in children.iter().enumerate() {
                walk(child, &format!("{ptr}/{key}/{i}"), f);
            }
        }
    }
    for key in ["items", "additionalProperties", "not"] {
        if let Some(child) = map.get(key) {
            walk(child, &format!("{ptr}/{key}"), f);
        }
    }
}

fn unknown_keys(ptr: &str, node: &Map<String, Value>, allowed: &[&str], out: &mut Vec<String>) {
    for key in node.keys() {
        if !allowed.contains(&key.as_str()) {
            out.push(format!("{ptr}: keyword `{key}` is not accepted"));
        }
    }
}

fn lookaround(pattern: &str) -> bool {
    ["(?=", "(?!", "(?<=", "(?<!"]
        .iter()
        .any(|l| pattern.contains(l))
}

fn is_object(node: &Map<String, Value>) -> bool {
    match node.get("type") {
        Some(Value::Array(types)) => types.contains(&Value::from("object")),
        Some(t) => t == "object",
        None => false,
    }
}

fn closed_and_listed(
    ptr: &str,
    node: &Map<String, Value>,
    all_required: bool,
    out: &mut Vec<String>,
) {
    if node.get("additionalProperties") != Some(&Value::Bool(false)) {
        out.push(format!(
            "{ptr}: object without `additionalProperties: false`"
        ));
    }
    let Some(props) = node.get("properties").and_then(Value::as_object) else {
        out.push(format!("{ptr}: object without `properties`"));
        return;
    };
    if all_required {
        let required: Vec<&str> = node
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        for name in props.keys() {
            if !required.contains(&name.as_str()) {
                out.push(format!("{ptr}: property `{name}` is not required"));
            }
        }
    }
}

const OPENAI_KEYS: &[&str] = &[
    "type",
    "enum",
    "const",
    "anyOf",
    "$defs",
    "$ref",
    "description",
    "title",
    "pattern",
    "format",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minItems",
    "maxItems",
    "items",
    "properties",
    "required",
    "additionalProperties",
];
const OPENAI_FORMATS: &[&str] = &[
    "date-time",
    "time",
    "date",
    "duration",
    "email",
    "hostname",
    "ipv4",
    "ipv6",
    "uuid",
];
const JSON_TYPES: &[&str] = &[
    "string", "number", "integer", "boolean", "object", "array", "null",
];

/// OpenAI `strict: true` (§5.1).
pub fn check_openai_strict(schema: &Value) -> Vec<String> {
    let mut out = Vec::new();
    let root = schema.as_object().cloned().unwrap_or_default();
    if !is_object(&root) || root.contains_key("anyOf") {
        out.push("root: not a plain object schema".to_owned());
    }
    let defs = root
        .get("$defs")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    walk(schema, "", &mut |ptr, node| {
        unknown_keys(ptr, node, OPENAI_KEYS, &mut out);
        if let Some(Value::String(r)) = node.get("$ref") {
            let name = r.strip_prefix("#/$defs/");
            if r != "#" && !name.is_some_and(|n| defs.contains_key(n)) {
                out.push(format!("{ptr}: `$ref` {r} is not a top-level definition"));
            }
            if node.len() > 1 {
                out.push(format!("{ptr}: siblings beside `$ref`"));
            }
            return;
        }
        check_types(ptr, node, JSON_TYPES, &mut out);
        if is_object(node) {
            closed_and_listed(ptr, node, true, &mut out);
        }
        if node.get("type") == Some(&Value::from("array")) && !node.get("items").is_some_and(typed)
        {
            out.push(format!("{ptr}: array items are untyped"));
        }
        format_and_pattern(ptr, node, OPENAI_FORMATS, &mut out);
        if let (Some(Value::Array(t)), Some(Value::Array(e))) = (node.get("type"), node.get("enum"))
            && t.contains(&Value::from("null"))
            && !e.contains(&Value::Null)
        {
            out.push(format!(
                "{ptr}: nullable enum without null among its values"
            ));
        }
    });
    out
}

/// Formats from `formats` only, patterns without look-around (both strict dialects).
fn format_and_pattern(
    ptr: &str,
    node: &Map<String, Value>,
    formats: &[&str],
    out: &mut Vec<String>,
) {
    if let Some(Value::String(f)) = node.get("format")
        && !formats.contains(&f.as_str())
    {
        out.push(format!("{ptr}: format `{f}` is not accepted"));
    }
    if node
        .get("pattern")
        .and_then(Value::as_str)
        .is_some_and(lookaround)
    {
        out.push(format!("{ptr}: pattern with look-around"));
    }
}

fn typed(items: &Value) -> bool {
    items.as_object().is_some_and(|m| {
        ["type", "anyOf", "$ref", "enum", "const"]
            .iter()
            .any(|k| m.contains_key(*k))
    })
}

fn check_types(ptr: &str, node: &Map<String, Value>, allowed: &[&str], out: &mut Vec<String>) {
    let types: Vec<&Value> = match node.get("type") {
        Some(Value::Array(t)) => t.iter().collect(),
        Some(t) => vec![t],
        None => return,
    };
    for t in types {
        if !t.as_str().is_some_and(|t| allowed.contains(&t)) {
            out.push(format!("{ptr}: type {t} is not accepted"));
        }
    }
}

const ANTHROPIC_KEYS: &[&str] = &[
    "$defs",
    "$ref",
    "type",
    "enum",
    "const",
    "anyOf",
    "allOf",
    "description",
    "title",
    "properties",
    "required",
    "additionalProperties",
    "format",
    "items",
    "minItems",
    "default",
    "pattern",
];
const ANTHROPIC_FORMATS: &[&str] = &[
    "date-time",
    "time",
    "date",
    "duration",
    "email",
    "hostname",
    "uri",
    "ipv4",
    "ipv6",
    "uuid",
];

/// Anthropic strict tool use (§5.2 and the corrections): what `transform_schema` keeps, plus
/// `default` and simple patterns; no recursion.
pub fn check_anthropic_strict(schema: &Value) -> Vec<String> {
    let mut out = Vec::new();
    if !schema.as_object().is_some_and(is_object) {
        out.push("root: not an object schema".to_owned());
    }
    walk(schema, "", &mut |ptr, node| {
        unknown_keys(ptr, node, ANTHROPIC_KEYS, &mut out);
        if node.contains_key("$ref") {
            out.push(format!(
                "{ptr}: `$ref` left (inlining expected; recursion refused)"
            ));
        }
        if let Some(t) = node.get("type")
            && !t.as_str().is_some_and(|t| JSON_TYPES.contains(&t))
        {
            out.push(format!("{ptr}: type {t} is not one type name"));
        }
        if is_object(node) {
            closed_and_listed(ptr, node, false, &mut out);
        }
        if node
            .get("minItems")
            .and_then(Value::as_u64)
            .is_some_and(|n| n > 1)
        {
            out.push(format!("{ptr}: minItems above 1"));
        }
        format_and_pattern(ptr, node, ANTHROPIC_FORMATS, &mut out);
        if let Some(Value::Array(values)) = node.get("enum")
            && values.iter().any(|v| v.is_object() || v.is_array())
        {
            out.push(format!("{ptr}: enum of non-primitive values"));
        }
    });
    out
}

const GEMINI_KEYS: &[&str] = &[
    "type",
    "format",
    "title",
    "description",
    "nullable",
    "enum",
    "default",
    "example",
    "items",
    "minItems",
    "maxItems",
    "minLength",
    "maxLength",
    "pattern",
    "minimum",
    "maximum",
    "properties",
    "required",
    "minProperties",
    "maxProperties",
    "propertyOrdering",
    "anyOf",
    "additionalProperties",
];
const GEMINI_TYPES: &[&str] = &[
    "STRING", "NUMBER", "INTEGER", "BOOLEAN", "ARRAY", "OBJECT", "NULL",
];

/// Gemini parameter names (the input root's properties): `^[A-Za-z_][A-Za-z0-9_]{0,63}$`.
fn check_gemini_parameter_names(schema: &Value, out: &mut Vec<String>) {
    let props = schema.get("properties").and_then(Value::as_object);
    for name in props.into_iter().flat_map(Map::keys) {
        let mut chars = name.chars();
        let first = chars
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_');
        let rest = chars.all(|c| c.is_ascii_alphanumeric() || c == '_');
        if !(first && rest && name.len() <= 64) {
            out.push(format!("parameter name `{name}` is not one Gemini accepts"));
        }
    }
}

/// Gemini `parameters` / `response`: the OpenAPI `Schema` subset (§5.3).
pub fn check_gemini(schema: &Value, input: bool) -> Vec<String> {
    let mut out = Vec::new();
    if input && schema.get("type") != Some(&Value::from("OBJECT")) {
        out.push("root: not an OBJECT".to_owned());
    }
    if input {
        check_gemini_parameter_names(schema, &mut out);
    }
    walk(schema, "", &mut |ptr, node| {
        unknown_keys(ptr, node, GEMINI_KEYS, &mut out);
        if let Some(t) = node.get("type")
            && !t.as_str().is_some_and(|t| GEMINI_TYPES.contains(&t))
        {
            out.push(format!("{ptr}: type {t} is not one OpenAPI type"));
        }
        if let Some(Value::Array(values)) = node.get("enum")
            && !values.iter().all(Value::is_string)
        {
            out.push(format!("{ptr}: non-string enum"));
        }
    });
    out
}

const GEMINI_JSON_KEYS: &[&str] = &[
    "$defs",
    "$ref",
    "anyOf",
    "oneOf",
    "additionalProperties",
    "enum",
    "format",
    "items",
    "minItems",
    "maxItems",
    "minLength",
    "maxLength",
    "minProperties",
    "maxProperties",
    "minimum",
    "maximum",
    "pattern",
    "properties",
    "required",
    "title",
    "type",
    "uniqueItems",
    "default",
    "description",
];

/// Gemini `parametersJsonSchema` / `responseJsonSchema` (§5.3).
pub fn check_gemini_json_schema(schema: &Value, input: bool) -> Vec<String> {
    let mut out = Vec::new();
    if input && schema.get("type") != Some(&Value::from("object")) {
        out.push("root: not an object".to_owned());
    }
    if input {
        check_gemini_parameter_names(schema, &mut out);
    }
    walk(schema, "", &mut |ptr, node| {
        unknown_keys(ptr, node, GEMINI_JSON_KEYS, &mut out);
        check_types(ptr, node, JSON_TYPES, &mut out);
    });
    out
}

/// Tool names: OpenAI and Anthropic `^[A-Za-z0-9_-]{1,64}$`; Gemini a letter or `_` first,
/// then `[A-Za-z0-9_.:-]`, at most 128; MCP `[A-Za-z0-9_.-]{1,128}`.
pub fn check_name(provider: &str, name: &str) -> Vec<String> {
    let (max, extra, first_letter): (usize, &str, bool) = match provider {
        "gemini" | "gemini-json-schema" => (128, "_.:-", true),
        "mcp" => (128, "_.-", false),
        _ => (64, "_-", false),
    };
    let mut out = Vec::new();
    if name.is_empty() || name.len() > max {
        out.push(format!(
            "name `{name}`: length {} outside 1..={max}",
            name.len()
        ));
    }
    if name
        .chars()
        .any(|c| !c.is_ascii_alphanumeric() && !extra.contains(c))
    {
        out.push(format!(
            "name `{name}`: a character outside [A-Za-z0-9{extra}]"
        ));
    }
    if first_letter && !name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
        out.push(format!("name `{name}`: must start with a letter or `_`"));
    }
    out
}

/// Every violation in a provider's `tools` array (`provider` as on the example's command
/// line), plus the number of tools declared strict.
pub fn check_definitions(provider: &str, tools: &Value) -> (Vec<String>, usize) {
    let mut out = Vec::new();
    let mut strict = 0;
    let list: Vec<Value> = match provider {
        "gemini" | "gemini-json-schema" => tools[0]["functionDeclarations"].as_array().cloned(),
        _ => tools.as_array().cloned(),
    }
    .unwrap_or_default();
    for tool in &list {
        let decl = if provider == "openai" {
            &tool["function"]
        } else {
            tool
        };
        let name = decl["name"].as_str().unwrap_or_default();
        let mut found: Vec<String> = check_name(provider, name);
        let is_strict = decl.get("strict") == Some(&Value::Bool(true));
        strict += usize::from(is_strict);
        let object_root = |s: &Value| s.get("type") == Some(&Value::from("object"));
        match provider {
            "openai" | "openai-responses" => {
                if tool["type"] != "function" {
                    found.push("not a function tool".to_owned());
                }
                if is_strict {
                    found.extend(check_openai_strict(&decl["parameters"]));
                } else if !object_root(&decl["parameters"]) {
                    found.push("parameters: root is not an object".to_owned());
                }
            }
            "anthropic" | "anthropic-strict" => {
                if is_strict {
                    found.extend(check_anthropic_strict(&decl["input_schema"]));
                } else if !object_root(&decl["input_schema"]) {
                    found.push("input_schema: root is not an object".to_owned());
                }
            }
            "gemini" => {
                found.extend(check_gemini(&decl["parameters"], true));
                if let Some(response) = decl.get("response") {
                    found.extend(check_gemini(response, false));
                }
            }
            "gemini-json-schema" => {
                found.extend(check_gemini_json_schema(
                    &decl["parametersJsonSchema"],
                    true,
                ));
                if let Some(response) = decl.get("responseJsonSchema") {
                    found.extend(check_gemini_json_schema(response, false));
                }
            }
            _ => {
                if !object_root(&decl["inputSchema"]) {
                    found.push("inputSchema: root is not an object".to_owned());
                }
                if decl.get("outputSchema").is_some_and(|s| !object_root(s)) {
                    found.push("outputSchema: root is not an object".to_owned());
                }
            }
        }
        out.extend(found.into_iter().map(|f| format!("{provider} {name}: {f}")));
    }
    (out, strict)
}
