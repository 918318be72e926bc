//! OpenAI function calling with `strict: true` (Chat Completions and Responses; the Responses
//! API also applies strict validation by itself whenever a schema is strict-compatible).
//!
//! Rules (`docs/providers.md` §5.1): object root; `additionalProperties: false` on every
//! object; every property in `required` (an optional one becomes nullable: `null` then means
//! "not given"); `anyOf` instead of `oneOf`; `$ref` only to `#/$defs/X`, kept for recursive
//! types and inlined otherwise; no `minLength`/`maxLength`/`uniqueItems`/`default`/…; formats
//! from a short list; patterns without look-around; at most 10 levels of nesting and 5000
//! properties. A schema that cannot follow them (an open map, an untyped value, a tuple) is
//! sent as the canonical schema with `strict: false`, and the losses say why.

use serde_json::Value;

use super::transformed::{Loss, Transformed, object_root};
use super::walk::{Nulls, Recursion, Rules, Walker};

pub(super) const RULES: Rules = Rules {
    keep: &[
        "enum",
        "const",
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
    ],
    formats: &[
        "date-time",
        "time",
        "date",
        "duration",
        "email",
        "hostname",
        "ipv4",
        "ipv6",
        "uuid",
    ],
    recursion: Recursion::KeepRef,
    nulls: Nulls::TypeArray,
    strict: true,
    all_required: true,
    const_ok: true,
    string_enums: false,
    upper_types: false,
    max_min_items: None,
};

/// Object nesting and property budgets (pydantic-ai `_STRICT_MAX_NESTING_DEPTH/_PROPERTIES`).
pub(super) const MAX_DEPTH: usize = 10;
pub(super) const MAX_PROPERTIES: usize = 5000;

pub(super) fn transform(canonical: &Value, input: bool) -> Transformed {
    let root = if input {
        Value::Object(object_root(canonical))
    } else {
        canonical.clone()
    };
    let (mut out, mut blockers) = Walker::new(&RULES, &root, input).finish(&root);
    if input && (root.get("anyOf").is_some() || root.get("oneOf").is_some()) {
        blockers.push(block("", "the root is a union, not one object"));
    }
    let (depth, properties) = budget(&out.schema, 0);
    if depth > MAX_DEPTH {
        blockers.push(block(
            "",
            &format!("{depth} levels of object nesting (at most {MAX_DEPTH})"),
        ));
    }
    if properties > MAX_PROPERTIES {
        blockers.push(block(
            "",
            &format!("{properties} object properties (at most {MAX_PROPERTIES})"),
        ));
    }
    if blockers.is_empty() {
        return out;
    }
    out = super::transformed::non_strict(root, blockers);
    out
}

fn block(pointer: &str, reason: &str) -> Loss {
    Loss {
        pointer: pointer.to_owned(),
        reason: reason.to_owned(),
    }
}

/// (deepest object nesting, number of object properties) of a schema.
pub(super) fn budget(schema: &Value, depth: usize) -> (usize, usize) {
    let Some(map) = schema.as_object() else {
        return (depth, 0);
    };
    let here = depth + usize::from(map.get("type") == Some(&Value::from("object")));
    let mut deepest = here;
    let mut count = map
        .get("properties")
        .and_then(Value::as_object)
        .map_or(0, serde_json::Map::len);
    let mut visit = |child: &Value| {
        let (d, c) = budget(child, here);
        deepest = deepest.max(d);
        count += c;
    };
    for key in ["properties", "$defs"] {
        if let Some(Value::Object(children)) = map.get(key) {
            children.values().for_each(&mut visit);
        }
    }
    for key in ["anyOf", "allOf", "oneOf"] {
        if let Some(Value::Array(children)) = map.get(key) {
            children.iter().for_each(&mut visit);
        }
    }
    if let Some(items) = map.get("items") {
        visit(items);
    }
    (deepest, count)
}
