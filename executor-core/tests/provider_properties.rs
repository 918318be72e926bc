//! Properties of the dialect transforms and the provider call parsers, over generated
//! schemas and calls (proptest): every transformed schema passes its dialect's rules, every
//! loss names a node of the canonical schema, parameters are neither lost nor invented, and
//! every provider's calls decode to what was encoded.

mod dialect_rules;

use proptest::prelude::*;
use serde_json::{Map, Value, json};
use tool_executor::provider::{Definitions, Provider};
use tool_executor::schema::dialect::{Dialect, Transformed};

/// Property names, Gemini-refused ones among them.
const NAMES: &[&str] = &["a", "b_c", "count", "user-id", "2fa", "x.y", "Z"];

fn name() -> impl Strategy<Value = String> {
    proptest::sample::select(NAMES).prop_map(str::to_owned)
}

fn leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(json!({"type": "string"})),
        (0_u64..4, 4_u64..9)
            .prop_map(|(lo, hi)| json!({"type": "string", "minLength": lo, "maxLength": hi})),
        Just(json!({"type": "string", "pattern": "^[a-z]+$", "format": "email"})),
        Just(json!({"type": "string", "format": "date-time"})),
        Just(json!({"type": "integer", "format": "int64"})),
        Just(json!({"type": "integer", "format": "uint64", "minimum": 0})),
        Just(json!({"type": "integer", "format": "int32"})),
        (-100_i64..0, 0_i64..100)
            .prop_map(|(lo, hi)| json!({"type": "integer", "minimum": lo, "maximum": hi})),
        Just(json!({"type": "number", "format": "double", "exclusiveMinimum": 0})),
        Just(json!({"type": "number", "multipleOf": 0.5})),
        Just(json!({"type": "boolean", "default": true})),
        Just(json!({"type": "string", "enum": ["red", "green"]})),
        Just(json!({"enum": [1, 2, 3]})),
        Just(json!({"const": "fixed"})),
        Just(
            json!({"type": ["integer", "null"], "format": "int8", "minimum": -128, "maximum": 127})
        ),
        Just(json!({})),
        Just(json!(true)),
    ]
}

fn object(inner: impl Strategy<Value = Value>) -> impl Strategy<Value = Value> {
    (
        proptest::collection::btree_map(name(), inner, 0..4),
        any::<u8>(),
        any::<bool>(),
    )
        .prop_map(|(props, mask, closed)| {
            let required: Vec<&String> = props
                .keys()
                .enumerate()
                .filter(|(i, _)| mask & (1 << i) != 0)
                .map(|(_, k)| k)
                .collect();
            let mut node = json!({"type": "object", "properties": props, "required": required});
            if closed {
                node["additionalProperties"] = json!(false);
            }
            node
        })
}

/// A canonical node: leaves, arrays, objects, open maps, unions, nullables and tuples.
fn node() -> impl Strategy<Value = Value> {
    leaf().prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            (inner.clone(), 0_u64..3)
                .prop_map(|(items, min)| json!({"type": "array", "items": items, "minItems": min})),
            object(inner.clone()),
            inner
                .clone()
                .prop_map(|v| json!({"type": "object", "additionalProperties": v})),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| json!({"anyOf": [a, b]})),
            (inner.clone(), inner.clone())
                .prop_map(|(a, b)| json!({"oneOf": [a, b], "description": "one of two"})),
            inner
                .clone()
                .prop_map(|v| json!({"anyOf": [v, {"type": "null"}]})),
            (inner.clone(), inner)
                .prop_map(|(a, b)| json!({"type": "array", "prefixItems": [a, b], "items": false})),
            Just(json!({"$ref": "#/$defs/Item"})),
            Just(json!({"$ref": "#/$defs/List"})),
        ]
    })
}

/// An arguments schema: an object root with `$defs` for the references `node` makes (`List`
/// refers to itself).
fn arguments_schema() -> impl Strategy<Value = Value> {
    (object(node()), leaf()).prop_map(|(mut root, item)| {
        root["$defs"] = json!({
            "Item": item,
            "List": {"type": "object", "properties": {
                "head": {"$ref": "#/$defs/Item"},
                "tail": {"anyOf": [{"$ref": "#/$defs/List"}, {"type": "null"}]}
            }, "required": ["head", "tail"], "additionalProperties": false}
        });
        root
    })
}

/// The rule violations of `t`: strict dialects when they claim strictness, Gemini always.
fn violations(d: Dialect, t: &Transformed, input: bool) -> Vec<String> {
    match d {
        Dialect::OpenAiStrict if t.strict => dialect_rules::check_openai_strict(&t.schema),
        Dialect::AnthropicStrict if t.strict => dialect_rules::check_anthropic_strict(&t.schema),
        Dialect::Gemini => dialect_rules::check_gemini(&t.schema, input),
        Dialect::GeminiJsonSchema => dialect_rules::check_gemini_json_schema(&t.schema, input),
        _ => Vec::new(),
    }
}

fn property_count(schema: &Value) -> usize {
    schema
        .get("properties")
        .and_then(Value::as_object)
        .map_or(0, Map::len)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn every_transformed_schema_passes_its_dialects_rules(schema in arguments_schema()) {
        for d in Dialect::ALL {
            let input = d.input(&schema);
            let broken = violations(d, &input, true);
            prop_assert!(broken.is_empty(), "{d:?} input: {broken:?}\n{}", input.schema);
            let output = d.output(&schema);
            let broken = violations(d, &output, false);
            prop_assert!(broken.is_empty(), "{d:?} output: {broken:?}\n{}", output.schema);
        }
    }

    #[test]
    fn every_loss_names_a_node_of_the_canonical_schema(schema in arguments_schema()) {
        for d in Dialect::ALL {
            for t in [d.input(&schema), d.output(&schema)] {
                for loss in &t.losses {
                    prop_assert!(
                        schema.pointer(&loss.pointer).is_some(),
                        "{d:?}: {} names no node ({})", loss.pointer, loss.reason
                    );
                    prop_assert!(!loss.reason.is_empty());
                }
            }
        }
    }

    #[test]
    fn arguments_are_neither_lost_nor_invented(schema in arguments_schema()) {
        for d in Dialect::ALL {
            let t = d.input(&schema);
            prop_assert_eq!(property_count(&t.schema), property_count(&schema), "{:?}", d);
            // Each rename maps a declared name to one of ours, and no two share a name.
            for (declared, ours) in &t.renamed_arguments {
                prop_assert!(t.schema["properties"].get(declared).is_some());
                prop_assert!(schema["properties"].get(ours).is_some());
            }
        }
    }
}

/// A call's arguments: small JSON objects whose numbers are integers within ±2^53 or
/// fractions (what survives Gemini's doubles).
fn arguments() -> impl Strategy<Value = Value> {
    let scalar = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        (-(1_i64 << 53)..=(1_i64 << 53)).prop_map(Value::from),
        (-1.0e6_f64..1.0e6)
            .prop_filter("a fraction", |f| f.fract() != 0.0)
            .prop_map(Value::from),
        "[a-z \"\\\\]{0,8}".prop_map(Value::from),
    ];
    let value = scalar.prop_recursive(2, 12, 3, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..3).prop_map(Value::from),
            proptest::collection::btree_map("[a-z]{1,4}", inner, 0..3)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    });
    proptest::collection::btree_map("[a-z_]{1,6}", value, 0..4)
        .prop_map(|m| Value::Object(m.into_iter().collect()))
}

fn doubles(v: &Value) -> Value {
    match v {
        Value::Number(n) => json!(n.as_f64().unwrap()),
        Value::Array(items) => items.iter().map(doubles).collect(),
        Value::Object(map) => {
            Value::Object(map.iter().map(|(k, v)| (k.clone(), doubles(v))).collect())
        }
        other => other.clone(),
    }
}

/// `calls` as `provider` sends them, in its documented response shape.
fn response(provider: Provider, calls: &[(String, String, Value)]) -> Value {
    match provider {
        Provider::OpenAiChat => {
            let calls: Vec<Value> = calls
                .iter()
                .map(|(id, name, args)| {
                    json!({
                        "id": id, "type": "function",
                        "function": {"name": name, "arguments": args.to_string()}
                    })
                })
                .collect();
            json!({"choices": [{"message": {"role": "assistant", "content": null, "tool_calls": calls}}]})
        }
        Provider::OpenAiResponses => {
            let items: Vec<Value> = calls
                .iter()
                .map(|(id, name, args)| {
                    json!({
                        "type": "function_call", "id": format!("fc_{id}"), "call_id": id,
                        "name": name, "arguments": args.to_string()
                    })
                })
                .collect();
            json!({"output": items})
        }
        Provider::Anthropic | Provider::AnthropicStrict => {
            let blocks: Vec<Value> = calls
                .iter()
                .map(|(id, name, args)| {
                    json!({
                        "type": "tool_use", "id": id, "name": name, "input": args
                    })
                })
                .collect();
            json!({"role": "assistant", "content": blocks})
        }
        _ => {
            let parts: Vec<Value> = calls
                .iter()
                .map(|(id, name, args)| {
                    json!({
                        "functionCall": {"id": id, "name": name, "args": doubles(args)}
                    })
                })
                .collect();
            json!({"candidates": [{"content": {"role": "model", "parts": parts}}]})
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    #[test]
    fn decoded_calls_are_the_calls_encoded(
        calls in proptest::collection::vec(("[a-z0-9]{1,8}", "[a-z_]{1,10}", arguments()), 0..4)
    ) {
        let calls: Vec<(String, String, Value)> = calls;
        for provider in Provider::ALL.into_iter().filter(|p| *p != Provider::Mcp) {
            let defs = Definitions::from_specs(&[], provider).unwrap();
            let sent = response(provider, &calls);
            let decoded = defs.calls(&sent).unwrap();
            prop_assert_eq!(decoded.len(), calls.len());
            for (call, (id, name, args)) in decoded.iter().zip(&calls) {
                prop_assert_eq!(call.id, Some(id.as_str()), "{}", provider);
                prop_assert_eq!(&call.name, name);
                let decoded = call.arguments.as_deref().ok();
                prop_assert_eq!(decoded, Some(args), "{}", provider);
            }
        }
    }
}
