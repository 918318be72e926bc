//! Gemini function declarations: `parameters`/`response` (an OpenAPI 3.0 `Schema` subset) and
//! `parametersJsonSchema`/`responseJsonSchema` (a JSON Schema subset).
//!
//! `parameters` (`docs/providers.md` §5.3): upper-case `type` names, `nullable: true` instead
//! of `null` types, no `$ref`/`$defs` (everything inlined; a recursive type is cut where it
//! recurs, a loss), no `oneOf`/`allOf`/`const`/`exclusiveMinimum`/`multipleOf`/
//! `uniqueItems`/`prefixItems`, string-only `enum`s, formats `date-time`, `enum`, `int32`,
//! `int64`, `float`, `double`. What it refuses moves into the description.
//!
//! `parametersJsonSchema`: JSON Schema with `$defs`/`$ref` (recursion kept), `anyOf`, the
//! length, range, item and property-count keywords, `default`, `title`; `const` becomes a
//! one-value `enum`; `exclusiveMinimum`, `multipleOf` and tuples do not survive.
//!
//! Neither dialect is strict: Gemini does not enforce schemas, so a blocker is just a loss.
//! Both apply `gemini_rules.rs`: parameter names mapped, integers past ±2^53 reported.

use serde_json::Value;

use super::gemini_rules;
use super::transformed::{Transformed, object_root};
use super::walk::{Nulls, Recursion, Rules, Walker};

const OPENAPI: Rules = Rules {
    keep: &[
        "format",
        "nullable",
        "enum",
        "default",
        "example",
        "minItems",
        "maxItems",
        "minLength",
        "maxLength",
        "pattern",
        "minimum",
        "maximum",
        "minProperties",
        "maxProperties",
        "propertyOrdering",
    ],
    formats: &["date-time", "enum", "int32", "int64", "float", "double"],
    recursion: Recursion::Cut,
    nulls: Nulls::Nullable,
    strict: false,
    all_required: false,
    const_ok: false,
    string_enums: true,
    upper_types: true,
    max_min_items: None,
};

const JSON_SCHEMA: Rules = Rules {
    keep: &[
        "enum",
        "format",
        "minItems",
        "maxItems",
        "minLength",
        "maxLength",
        "minProperties",
        "maxProperties",
        "minimum",
        "maximum",
        "pattern",
        "title",
        "uniqueItems",
        "default",
    ],
    formats: &["*"],
    recursion: Recursion::KeepRef,
    nulls: Nulls::TypeArray,
    strict: false,
    all_required: false,
    const_ok: false,
    string_enums: false,
    upper_types: false,
    max_min_items: None,
};

fn walk(rules: &Rules, canonical: &Value, input: bool) -> Transformed {
    let root = if input {
        Value::Object(object_root(canonical))
    } else {
        canonical.clone()
    };
    let (mut out, blockers) = Walker::new(rules, &root, input).finish(&root);
    out.losses.extend(blockers);
    out.losses.extend(gemini_rules::integer_precision(&root));
    if input {
        out.renamed_arguments = gemini_rules::map_parameter_names(&mut out.schema);
    }
    out
}

pub(super) fn openapi(canonical: &Value, input: bool) -> Transformed {
    walk(&OPENAPI, canonical, input)
}

pub(super) fn json_schema(canonical: &Value, input: bool) -> Transformed {
    walk(&JSON_SCHEMA, canonical, input)
}
