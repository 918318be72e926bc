//! Two Gemini rules beyond the keyword subsets of `gemini.rs` (`docs/providers.md` §6.3, late-2026
//! corrections), applied to both Gemini dialects:
//!
//! - **Parameter names** must match `^[A-Za-z_][A-Za-z0-9_]{0,63}$`. A top-level argument
//!   whose name does not is declared under a mapped name (every other character `_`, a `_` in
//!   front of a leading digit, cut at 64, `_2`, `_3`, … against a clash) and mapped back when
//!   the call arrives, as tool names are; nothing the schema accepts changes, so it is no loss.
//! - **Integers travel as doubles** (protobuf `Struct`), both in `functionCall.args` and in
//!   the `functionResponse` we send: an integer node whose range reaches past ±2^53 is a loss,
//!   since such values arrive rounded.

use serde_json::{Map, Value};

use super::transformed::Loss;
use super::walk::escape_pointer;

/// The largest magnitude up to which a double holds every integer: 2^53.
const EXACT: f64 = 9_007_199_254_740_992.0;

const MAX_NAME: usize = 64;

/// Whether `name` is a Gemini parameter name.
pub(super) fn is_parameter_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        && name.len() <= MAX_NAME
}

/// Renames the root's properties that are not Gemini parameter names (in `properties`,
/// `required` and `propertyOrdering`) and returns the renames as (declared, ours) pairs.
pub(super) fn map_parameter_names(schema: &mut Value) -> Vec<(String, String)> {
    let Some(root) = schema.as_object_mut() else {
        return Vec::new();
    };
    let Some(Value::Object(props)) = root.get("properties") else {
        return Vec::new();
    };
    let mut taken: Vec<String> = props
        .keys()
        .filter(|k| is_parameter_name(k))
        .cloned()
        .collect();
    let mut renamed = Vec::new();
    for name in props.keys().filter(|k| !is_parameter_name(k)) {
        let mapped = unused(&mapped_name(name), &taken);
        taken.push(mapped.clone());
        renamed.push((mapped, name.clone()));
    }
    if renamed.is_empty() {
        return renamed;
    }
    let new_name = |name: &str| {
        renamed
            .iter()
            .find(|(_, ours)| ours == name)
            .map_or_else(|| name.to_owned(), |(declared, _)| declared.clone())
    };
    if let Some(Value::Object(props)) = root.get_mut("properties") {
        let old = std::mem::take(props);
        *props = old
            .into_iter()
            .map(|(k, v)| (new_name(&k), v))
            .collect::<Map<_, _>>();
    }
    for key in ["required", "propertyOrdering"] {
        if let Some(Value::Array(names)) = root.get_mut(key) {
            for name in names.iter_mut() {
                if let Some(s) = name.as_str() {
                    *name = Value::String(new_name(s));
                }
            }
        }
    }
    renamed
}

fn mapped_name(name: &str) -> String {
    let mut out: String = name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    if !out.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
        out.insert(0, '_');
    }
    // Only ASCII is left, so a byte index is a character boundary.
    out.truncate(MAX_NAME);
    out
}

/// `name`, or `name` with the first `_N` suffix no other parameter has.
fn unused(name: &str, taken: &[String]) -> String {
    if !taken.iter().any(|t| t == name) {
        return name.to_owned();
    }
    // `taken.len() + 1` distinct candidates: at least one is free.
    (2..=taken.len() + 2)
        .map(|n| {
            let suffix = format!("_{n}");
            let mut base = name.to_owned();
            base.truncate(MAX_NAME - suffix.len());
            base + &suffix
        })
        .find(|candidate| !taken.iter().any(|t| t == candidate))
        .unwrap_or_else(|| name.to_owned())
}

/// A loss for every integer node of `canonical` whose range reaches past ±2^53.
pub(super) fn integer_precision(canonical: &Value) -> Vec<Loss> {
    let mut losses = Vec::new();
    visit(canonical, "", &mut losses);
    losses
}

fn visit(node: &Value, ptr: &str, losses: &mut Vec<Loss>) {
    let Some(map) = node.as_object() else {
        return;
    };
    if is_integer(map) && !within_exact_range(map) {
        losses.push(Loss {
            pointer: ptr.to_owned(),
            reason: "Gemini carries numbers as doubles: integers beyond ±2^53 \
                     (9007199254740992) arrive rounded"
                .to_owned(),
        });
    }
    for key in ["properties", "$defs", "definitions", "patternProperties"] {
        if let Some(Value::Object(children)) = map.get(key) {
            for (name, child) in children {
                visit(
                    child,
                    &format!("{ptr}/{key}/{}", escape_pointer(name)),
                    losses,
                );
            }
        }
    }
    for key in ["anyOf", "oneOf", "allOf", "prefixItems"] {
        if let Some(Value::Array(children)) = map.get(key) {
            for (i, child) in children.iter().enumerate() {
                visit(child, &format!("{ptr}/{key}/{i}"), losses);
            }
        }
    }
    for key in ["items", "additionalProperties"] {
        if let Some(child) = map.get(key) {
            visit(child, &format!("{ptr}/{key}"), losses);
        }
    }
}

fn is_integer(map: &Map<String, Value>) -> bool {
    match map.get("type") {
        Some(Value::String(t)) => t == "integer",
        Some(Value::Array(types)) => types.iter().any(|t| t == "integer"),
        _ => false,
    }
}

/// Formats schemars writes for integer types no wider than 32 bits (often without bounds).
const NARROW_FORMATS: &[&str] = &["int8", "int16", "int32", "uint8", "uint16", "uint32"];

/// Whether the node's format or bounds keep every value within ±2^53 (an unbounded side does
/// not).
fn within_exact_range(map: &Map<String, Value>) -> bool {
    if map
        .get("format")
        .and_then(Value::as_str)
        .is_some_and(|f| NARROW_FORMATS.contains(&f))
    {
        return true;
    }
    let low = ["minimum", "exclusiveMinimum"]
        .iter()
        .filter_map(|k| map.get(*k)?.as_f64())
        .reduce(f64::max);
    let high = ["maximum", "exclusiveMaximum"]
        .iter()
        .filter_map(|k| map.get(*k)?.as_f64())
        .reduce(f64::min);
    low.is_some_and(|l| l >= -EXACT) && high.is_some_and(|h| h <= EXACT)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn parameter_names_follow_the_rule() {
        assert!(is_parameter_name("city"));
        assert!(is_parameter_name("_x9"));
        assert!(!is_parameter_name("9lives"));
        assert!(!is_parameter_name("user-id"));
        assert!(!is_parameter_name("a.b"));
        assert!(!is_parameter_name(""));
        assert!(is_parameter_name(&"a".repeat(64)));
        assert!(!is_parameter_name(&"a".repeat(65)));
    }

    #[test]
    fn refused_names_are_mapped_everywhere_the_root_names_them() {
        let mut schema = json!({
            "type": "OBJECT",
            "properties": {"user-id": {"type": "STRING"}, "user_id": {"type": "STRING"}, "9": {}},
            "required": ["user-id", "9"],
            "propertyOrdering": ["9", "user-id", "user_id"]
        });
        let renamed = map_parameter_names(&mut schema);
        let mut renamed = renamed;
        renamed.sort();
        assert_eq!(
            renamed,
            [
                ("_9".to_owned(), "9".to_owned()),
                ("user_id_2".to_owned(), "user-id".to_owned())
            ]
        );
        assert_eq!(
            schema,
            json!({
                "type": "OBJECT",
                "properties": {"user_id_2": {"type": "STRING"}, "user_id": {"type": "STRING"}, "_9": {}},
                "required": ["user_id_2", "_9"],
                "propertyOrdering": ["_9", "user_id_2", "user_id"]
            })
        );
        let long = "é".repeat(70);
        assert_eq!(mapped_name(&long).len(), 64);
        assert!(is_parameter_name(&mapped_name(&long)));
    }

    #[test]
    fn integers_past_two_to_the_53_are_losses_where_they_are() {
        let schema = json!({
            "type": "object",
            "properties": {
                "small": {"type": "integer", "format": "int32"},
                "port": {"type": "integer", "format": "uint16", "minimum": 0},
                "big": {"type": "integer", "format": "uint64", "minimum": 0},
                "maybe": {"type": ["integer", "null"]},
                "edge": {"type": "integer", "minimum": -9_007_199_254_740_992_i64, "maximum": 9_007_199_254_740_992_i64},
                "list": {"type": "array", "items": {"$ref": "#/$defs/Id"}}
            },
            "$defs": {"Id": {"type": "integer"}}
        });
        let pointers: Vec<String> = integer_precision(&schema)
            .into_iter()
            .map(|l| l.pointer)
            .collect();
        assert_eq!(
            pointers,
            ["/properties/big", "/properties/maybe", "/$defs/Id"]
        );
    }
}
