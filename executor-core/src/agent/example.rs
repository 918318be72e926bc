//! A tool skill's example: a call built from the tool's input schema that the tool accepts.
//!
//! Every required property gets a sample of its type (a `const`, the first `enum` value, the
//! first of `examples`, the `default`, or `1`, `false`, a sample of a known string `format`,
//! one-item arrays, objects of their required properties), within the schema's bounds. A
//! plain string is the example its description quotes (`City name, e.g. "Paris".` gives
//! `"Paris"`), else the property's own name (`{"query": "query"}`), so a reader sees what
//! each argument is for rather than a placeholder. Where no sample is certain to be accepted (a `pattern`, a `not`, an unknown
//! `format`, bounds that cannot be met) there is no example: a card should not show a call
//! that fails.

use serde_json::{Map, Value, json};

use crate::tool::ToolSpec;

/// How deep a schema is followed (through `$ref`s, arrays and objects) before giving up.
const MAX_DEPTH: u8 = 16;

/// The most array items or string bytes an example holds (a larger `minItems` or
/// `minLength` gets no example).
const MAX_LEN: u64 = 64;

/// The skill example for `spec`: the text of `{"tool": NAME, "arguments": {…}}`, or `None`
/// when no argument object can be built that the schema is sure to accept.
pub(super) fn example_call(spec: &ToolSpec) -> Option<String> {
    let root = &spec.input_schema;
    let arguments = Sample { root }.of(root, None, 0)?;
    Some(json!({"tool": spec.name, "arguments": arguments}).to_string())
}

/// A sampler over one root schema (where `$ref`s are resolved).
struct Sample<'a> {
    root: &'a Value,
}

impl Sample<'_> {
    /// A sample of `schema`; `name` is the property it describes, when it is one.
    fn of(&self, schema: &Value, name: Option<&str>, depth: u8) -> Option<Value> {
        if depth > MAX_DEPTH {
            return None;
        }
        let schema = match schema {
            Value::Bool(true) => return Some(Value::Null),
            Value::Object(schema) => schema,
            _ => return None,
        };
        if schema.contains_key("not") || schema.contains_key("pattern") {
            return None;
        }
        if let Some(given) = given_value(schema) {
            return Some(given);
        }
        if let Some(target) = schema.get("$ref").and_then(Value::as_str) {
            return self.of(self.resolve(target)?, name, depth + 1);
        }
        if let Some(first) = ["anyOf", "oneOf"]
            .iter()
            .find_map(|key| schema.get(*key).and_then(Value::as_array))
        {
            return first
                .iter()
                .find_map(|branch| self.of(branch, name, depth + 1));
        }
        if let Some(all) = schema.get("allOf").and_then(Value::as_array) {
            // Several branches would have to be merged; one is the common `$ref` wrapper.
            return match all.as_slice() {
                [only] => self.of(only, name, depth + 1),
                _ => None,
            };
        }
        self.of_type(schema, name, depth)
    }

    fn of_type(&self, schema: &Map<String, Value>, name: Option<&str>, depth: u8) -> Option<Value> {
        let ty = match schema.get("type") {
            Some(Value::String(ty)) => ty.as_str(),
            Some(Value::Array(types)) if types.iter().any(|t| t == "null") => "null",
            Some(Value::Array(types)) => types.first()?.as_str()?,
            None if schema.contains_key("properties") => "object",
            None => return Some(Value::Null),
            Some(_) => return None,
        };
        match ty {
            "null" => Some(Value::Null),
            "boolean" => Some(Value::Bool(false)),
            "integer" | "number" => number(schema).map(Value::from),
            "string" => string(schema, name).map(Value::from),
            "array" => self.array(schema, name, depth),
            "object" => self.object(schema, depth),
            _ => None,
        }
    }

    /// One item (or `minItems` of them), or the tuple of `prefixItems`.
    fn array(&self, schema: &Map<String, Value>, name: Option<&str>, depth: u8) -> Option<Value> {
        if let Some(prefix) = schema.get("prefixItems").and_then(Value::as_array) {
            let items = prefix.iter().map(|item| self.of(item, None, depth + 1));
            return items.collect::<Option<Vec<_>>>().map(Value::Array);
        }
        let min = bound(schema, "minItems").unwrap_or(0);
        let max = bound(schema, "maxItems").unwrap_or(u64::MAX);
        let Some(item) = schema.get("items") else {
            return (min == 0).then(|| Value::Array(Vec::new()));
        };
        let count = min.max(1).min(max);
        let unique = schema.get("uniqueItems") == Some(&Value::Bool(true));
        if count < min || count > MAX_LEN || (count > 1 && unique) {
            return None;
        }
        let item = self.of(item, name, depth + 1)?;
        let count = usize::try_from(count).ok()?;
        Some(Value::Array(vec![item; count]))
    }

    /// The required properties, each with its sample.
    fn object(&self, schema: &Map<String, Value>, depth: u8) -> Option<Value> {
        let properties = schema.get("properties").and_then(Value::as_object);
        let mut out = Map::new();
        for name in schema
            .get("required")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let name = name.as_str()?;
            let property = properties?.get(name)?;
            out.insert(name.to_owned(), self.of(property, Some(name), depth + 1)?);
        }
        Some(Value::Object(out))
    }

    /// A local reference (`#/$defs/Name`, `#/definitions/Name`) in the root schema.
    fn resolve(&self, target: &str) -> Option<&Value> {
        let pointer = target.strip_prefix('#')?;
        self.root.pointer(pointer)
    }
}

/// A value the schema itself gives: `const`, the first `enum` value, the first of
/// `examples`, or the `default`.
fn given_value(schema: &Map<String, Value>) -> Option<Value> {
    if let Some(value) = schema.get("const") {
        return Some(value.clone());
    }
    ["enum", "examples"]
        .iter()
        .find_map(|key| schema.get(*key).and_then(Value::as_array)?.first().cloned())
        .or_else(|| schema.get("default").cloned())
}

/// `1`, moved into `[minimum, maximum]` (exclusive bounds included); `None` when the range
/// holds no integer.
fn number(schema: &Map<String, Value>) -> Option<i64> {
    let limit = |key: &str| schema.get(key).and_then(Value::as_f64);
    let low = match (limit("minimum"), limit("exclusiveMinimum")) {
        (_, Some(exclusive)) => Some(exclusive.floor() + 1.0),
        (inclusive, None) => inclusive.map(f64::ceil),
    };
    let high = match (limit("maximum"), limit("exclusiveMaximum")) {
        (_, Some(exclusive)) => Some(exclusive.ceil() - 1.0),
        (inclusive, None) => inclusive.map(f64::floor),
    };
    let value = low.map_or(1.0, |low| low.max(1.0));
    let value = high.map_or(value, |high| high.min(value));
    let fits = low.is_none_or(|low| value >= low) && value.abs() < 9_007_199_254_740_992.0;
    // Whole (floored or ceiled) and below 2^53, so the cast is exact.
    #[allow(clippy::cast_possible_truncation)]
    fits.then_some(value as i64)
}

/// The sample of a string without a `format` that has neither a quoted example in its
/// description nor a property name.
const SAMPLE: &str = "example";

/// A sample of a known `format`; else the example the description quotes, the property's
/// name or `"example"`, the first that fits the length bounds (or `x`s when they ask).
fn string(schema: &Map<String, Value>, name: Option<&str>) -> Option<String> {
    if let Some(format) = schema.get("format").and_then(Value::as_str) {
        let sample = match format {
            "date-time" => "2026-01-01T00:00:00Z",
            "date" => "2026-01-01",
            "time" => "00:00:00Z",
            "duration" => "PT1S",
            "email" => "user@example.com",
            "hostname" => "example.com",
            "ipv4" => "127.0.0.1",
            "ipv6" => "::1",
            "uri" | "iri" | "url" => "https://example.com/",
            "uuid" => "00000000-0000-0000-0000-000000000000",
            _ => return None,
        };
        return Some(sample.to_owned());
    }
    let min = bound(schema, "minLength").unwrap_or(0);
    let max = bound(schema, "maxLength").unwrap_or(u64::MAX);
    let quoted = schema
        .get("description")
        .and_then(Value::as_str)
        .and_then(quoted_example);
    let fits = |s: &&str| (min..=max).contains(&(s.chars().count() as u64));
    if let Some(sample) = [quoted, name, Some(SAMPLE)]
        .into_iter()
        .flatten()
        .find(fits)
    {
        return Some(sample.to_owned());
    }
    let count = min.max(1);
    let count = usize::try_from(count)
        .ok()
        .filter(|_| count <= max.min(MAX_LEN))?;
    Some("x".repeat(count))
}

/// The first value a description quotes as an example after `e.g.`, `for example`, `such as`
/// or `like`, in double, single or back quotes (`e.g. "Paris"` gives `Paris`).
fn quoted_example(description: &str) -> Option<&str> {
    ["e.g.", "for example", "such as", "like"]
        .iter()
        .find_map(|lead| {
            let after = &description[description.find(lead)? + lead.len()..];
            let after = after.trim_start_matches([',', ':', ' ']);
            let quote = after
                .chars()
                .next()
                .filter(|c| ['"', '\'', '`'].contains(c))?;
            let rest = &after[quote.len_utf8()..];
            let value = &rest[..rest.find(quote)?];
            (!value.is_empty()).then_some(value)
        })
}

fn bound(schema: &Map<String, Value>, key: &str) -> Option<u64> {
    schema.get(key).and_then(Value::as_u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(schema: &Value) -> Option<Value> {
        Sample { root: schema }.of(schema, None, 0)
    }

    #[test]
    fn required_properties_get_a_sample_of_their_type() {
        let schema = json!({
            "type": "object",
            "properties": {
                "city": {"type": "string"},
                "days": {"type": "integer", "format": "uint8", "minimum": 0, "maximum": 255},
                "above": {"type": "integer", "minimum": 10},
                "below": {"type": "number", "exclusiveMaximum": 0.5},
                "flag": {"type": "boolean"},
                "maybe": {"type": ["string", "null"]},
                "words": {"type": "array", "items": {"type": "string"}},
                "pair": {"type": "array", "prefixItems": [{"type": "integer"}, {"type": "boolean"}]},
                "unit": {"$ref": "#/$defs/Unit"},
                "when": {"type": "string", "format": "date-time"},
                "letter": {"type": "string", "minLength": 1, "maxLength": 1},
                "optional": {"type": "string", "pattern": "^a$"},
            },
            "required": ["city", "days", "above", "below", "flag", "maybe", "words", "pair",
                         "unit", "when", "letter"],
            "$defs": {"Unit": {"type": "string", "enum": ["celsius", "fahrenheit"]}},
        });
        assert_eq!(
            sample(&schema),
            Some(json!({
                "city": "city", "days": 1, "above": 10, "below": 0, "flag": false,
                "maybe": null, "words": ["words"], "pair": [1, false], "unit": "celsius",
                "when": "2026-01-01T00:00:00Z", "letter": "x",
            }))
        );
    }

    #[test]
    fn no_example_when_a_required_property_has_no_sure_sample() {
        for property in [
            json!({"type": "string", "pattern": "^[a-z]+$"}),
            json!({"type": "string", "format": "semver"}),
            json!({"type": "integer", "minimum": 2, "maximum": 1}),
            json!({"type": "array", "items": {"type": "integer"}, "minItems": 2, "uniqueItems": true}),
            json!({"type": "array", "items": {"type": "integer"}, "minItems": 1_000_000_000}),
            json!({"type": "string", "minLength": 1_000_000_000}),
            json!({"$ref": "#/$defs/Missing"}),
            json!({"not": {"type": "string"}}),
            json!(false),
        ] {
            let schema = json!({
                "type": "object",
                "properties": {"x": property},
                "required": ["x"],
            });
            assert_eq!(sample(&schema), None, "{property}");
        }
    }

    #[test]
    fn the_schema_own_values_come_first() {
        let cases = [
            (json!({"const": "fixed", "type": "string"}), json!("fixed")),
            (
                json!({"type": "string", "examples": ["Paris"]}),
                json!("Paris"),
            ),
            (json!({"type": "integer", "default": 7}), json!(7)),
            (
                json!({"anyOf": [{"not": {}}, {"type": "boolean"}]}),
                json!(false),
            ),
            (json!({"allOf": [{"$ref": "#/$defs/N"}]}), json!(1)),
            (json!(true), Value::Null),
        ];
        for (property, expected) in cases {
            let schema = json!({
                "type": "object",
                "properties": {"x": property},
                "required": ["x"],
                "$defs": {"N": {"type": "integer"}},
            });
            assert_eq!(sample(&schema), Some(json!({"x": expected})), "{property}");
        }
    }

    #[test]
    fn a_plain_string_is_the_description_example_or_the_property_name() {
        let schema = json!({
            "type": "object",
            "properties": {
                "city": {"type": "string", "description": "City name, e.g. \"Paris\"."},
                "unit": {"type": "string", "description": "A unit such as 'metric'."},
                "query": {"type": "string", "description": "What to look for."},
                "code": {"type": "string", "maxLength": 2, "description": "e.g. `NOR`"},
                "tags": {"type": "array", "items": {"type": "string"}},
            },
            "required": ["city", "unit", "query", "code", "tags"],
        });
        assert_eq!(
            sample(&schema),
            Some(json!({
                "city": "Paris", "unit": "metric", "query": "query", "code": "x",
                "tags": ["tags"],
            }))
        );
        assert_eq!(quoted_example("no example here"), None);
        assert_eq!(quoted_example("e.g. \"\" is empty"), None);
        assert_eq!(quoted_example("for example: `x y`"), Some("x y"));
    }
}
