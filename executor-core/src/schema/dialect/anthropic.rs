//! Anthropic `tools[].input_schema`, standard (non-strict) and strict.
//!
//! Standard (`docs/providers.md` §5.2): any JSON Schema whose root says `type: "object"`; the
//! canonical schema is sent as is and nothing is lost.
//!
//! Strict (`"strict": true`; the SDK's `transform_schema` plus what the API keeps beyond it):
//! `type`, `enum`/`const`, `anyOf` (`oneOf` becomes `anyOf`), `description`, `title`,
//! `default`, simple `pattern`s, string formats from a short list, `items` and `minItems` of 0
//! or 1; objects closed with `additionalProperties: false`. Everything else (`minimum`,
//! `maxLength`, `maxItems`, …) moves into the description. References are inlined; recursion,
//! open maps, untyped values and tuples cannot be strict, so such a tool is sent in the standard form.

use serde_json::Value;

use super::transformed::{Transformed, object_root};
use super::walk::{Nulls, Recursion, Rules, Walker};

const RULES: Rules = Rules {
    keep: &[
        "enum", "const", "title", "format", "default", "pattern", "minItems",
    ],
    formats: &[
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
    ],
    recursion: Recursion::Block,
    nulls: Nulls::AnyOf,
    strict: true,
    all_required: false,
    const_ok: true,
    string_enums: false,
    upper_types: false,
    max_min_items: Some(1),
};

fn root(canonical: &Value, input: bool) -> Value {
    if input {
        Value::Object(object_root(canonical))
    } else {
        canonical.clone()
    }
}

pub(super) fn standard(canonical: &Value, input: bool) -> Transformed {
    Transformed {
        schema: root(canonical, input),
        strict: false,
        losses: Vec::new(),
        absent_when_null: Vec::new(),
        renamed_arguments: Vec::new(),
    }
}

pub(super) fn strict(canonical: &Value, input: bool) -> Transformed {
    let root = root(canonical, input);
    let (out, blockers) = Walker::new(&RULES, &root, input).finish(&root);
    if blockers.is_empty() {
        out
    } else {
        super::transformed::non_strict(root, blockers)
    }
}
