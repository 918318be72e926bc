//! Every dialect of a corpus of hard parameter types: snapshots (`tests/snapshots/dialect_*.json`),
//! the losses asserted where meaning changes, and every output checked against the provider
//! rules as code (`dialect_rules`).

// The tools under test take owned parameters, as the model's arguments are decoded.
#![allow(clippy::needless_pass_by_value)]

mod common;
mod dialect_rules;

use std::collections::HashMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use tool_executor::ToolSet;
use tool_executor::prelude::*;
use tool_executor::provider::{Definitions, Provider, SchemaRole};
use tool_executor::schema::dialect::{Dialect, Transformed};

/// A colour.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Color {
    /// Like blood.
    Red,
    /// Like grass.
    Green,
}

/// A shape: serde's externally tagged enum with unit, newtype and struct variants.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub enum Shape {
    /// A point.
    Dot,
    /// A square of this side.
    Square(f64),
    /// A circle.
    Circle {
        /// Its radius.
        r: f64,
    },
}

/// An input event: internally tagged by `kind`.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Event {
    /// A click.
    Click {
        /// Column.
        x: i32,
        /// Row.
        y: i32,
    },
    /// A key press.
    Key {
        /// The key's code.
        code: String,
    },
}

/// A search filter with optional fields.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct Filter {
    /// Words to match.
    pub query: String,
    /// At most this many.
    pub limit: Option<u32>,
    /// Match exactly.
    #[serde(default)]
    pub exact: bool,
}

/// A tree node: a recursive type.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct Node {
    /// The node's name.
    pub name: String,
    /// Its children.
    pub children: Vec<Node>,
}

/// Constrained with schemars attributes.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct Bounded {
    /// A short name.
    #[schemars(length(min = 1, max = 20))]
    pub name: String,
    /// A small count.
    #[schemars(range(min = 1, max = 10))]
    pub count: u32,
    /// Lower-case letters.
    #[schemars(regex(pattern = r"^[a-z]+$"))]
    pub slug: String,
    /// Not a lower-case word (look-around).
    #[schemars(regex(pattern = r"^(?!admin).*$"))]
    pub handle: String,
}

/// A page range, flattened into its parent.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct Range {
    /// First page.
    pub from: u32,
    /// Last page.
    pub to: u32,
}

/// A labelled range: `#[serde(flatten)]`.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct Labelled {
    /// The label.
    pub label: String,
    /// The pages.
    #[serde(flatten)]
    pub range: Range,
}

/// Paints with a colour.
#[tool]
fn paint(color: Color, shade: Option<Color>) -> String {
    format!("{color:?} {shade:?}")
}

/// Draws a shape.
#[tool]
fn draw(shape: Shape) -> Shape {
    shape
}

/// Handles an event.
#[tool]
fn handle(event: Event) -> String {
    format!("{event:?}")
}

/// Searches with an optional filter.
#[tool]
fn search(filter: Option<Filter>) -> usize {
    filter.map_or(0, |f| f.query.len())
}

/// Counts words per key.
#[tool]
fn tally(counts: HashMap<String, i64>) -> i64 {
    counts.values().sum()
}

/// Counts a tree's nodes.
#[tool]
fn size(tree: Node) -> usize {
    fn count(n: &Node) -> usize {
        1 + n.children.iter().map(count).sum::<usize>()
    }
    count(&tree)
}

/// Mixed number widths.
#[tool]
fn widths(big: u64, small: i8, ratio: f32) -> String {
    format!("{big} {small} {ratio}")
}

/// Retries with a default.
#[tool]
fn retry(
    /// What to run.
    job: &str,
    /// How often.
    #[arg(default = 3)]
    times: u8,
) -> String {
    format!("{job} x{times}")
}

/// Checks bounds.
#[tool]
fn bounded(item: Bounded) -> String {
    item.name
}

/// Takes a pair.
#[tool]
fn pair(pair: (i32, String)) -> String {
    format!("{pair:?}")
}

/// Takes a flattened struct.
#[tool]
fn labelled(pages: Labelled) -> u32 {
    pages.range.to - pages.range.from
}

/// Takes anything.
#[tool]
fn anything(value: Value) -> Value {
    value
}

/// Takes nothing.
#[tool]
fn nothing() -> &'static str {
    "done"
}

/// Searches the notes (a dotted name).
#[tool(name = "notes.search")]
fn notes_search(query: &str) -> Vec<String> {
    vec![query.to_owned()]
}

fn corpus() -> ToolSet {
    toolset![
        paint,
        draw,
        handle,
        search,
        tally,
        size,
        widths,
        retry,
        bounded,
        pair,
        labelled,
        anything,
        nothing,
        notes_search
    ]
}

fn dialect_name(d: Dialect) -> &'static str {
    d.as_str()
}

fn as_json(t: &Transformed) -> Value {
    json!({"schema": t.schema, "strict": t.strict, "losses": t.losses})
}

/// The strict-rule violations of `t` in dialect `d` (strict outputs and Gemini outputs).
fn violations(d: Dialect, t: &Transformed, input: bool) -> Vec<String> {
    match d {
        Dialect::OpenAiStrict if t.strict && input => dialect_rules::check_openai_strict(&t.schema),
        Dialect::AnthropicStrict if t.strict && input => {
            dialect_rules::check_anthropic_strict(&t.schema)
        }
        Dialect::Gemini => dialect_rules::check_gemini(&t.schema, input),
        Dialect::GeminiJsonSchema => dialect_rules::check_gemini_json_schema(&t.schema, input),
        _ => Vec::new(),
    }
}

#[test]
fn every_dialect_of_the_corpus_matches_its_snapshot_and_the_rules() {
    let mut broken = Vec::new();
    for spec in corpus().list() {
        let mut all = serde_json::Map::new();
        for d in Dialect::ALL {
            let input = d.input(&spec.input_schema);
            broken.extend(
                violations(d, &input, true)
                    .into_iter()
                    .map(|v| format!("{} {}: {v}", spec.name, dialect_name(d))),
            );
            let mut entry = json!({"input": as_json(&input)});
            if let Some(schema) = &spec.output_schema {
                let output = d.output(schema);
                broken.extend(
                    violations(d, &output, false)
                        .into_iter()
                        .map(|v| format!("{} {} output: {v}", spec.name, dialect_name(d))),
                );
                entry["output"] = as_json(&output);
            }
            all.insert(dialect_name(d).to_owned(), entry);
        }
        let file = format!("dialect_{}", spec.name.replace('.', "_"));
        common::assert_snapshot(&file, &Value::Object(all));
    }
    assert!(broken.is_empty(), "rule violations:\n{}", broken.join("\n"));
}

fn losses(d: Dialect, tool: &ToolSet, name: &str) -> Transformed {
    d.input(&tool.spec(name).unwrap().input_schema)
}

fn pointers(t: &Transformed) -> Vec<&str> {
    t.losses.iter().map(|l| l.pointer.as_str()).collect()
}

#[test]
fn lossless_types_stay_strict_and_report_nothing() {
    let tools = corpus();
    for name in [
        "paint",
        "draw",
        "handle",
        "size",
        "widths",
        "retry",
        "labelled",
        "nothing",
        "notes.search",
    ] {
        let openai = losses(Dialect::OpenAiStrict, &tools, name);
        assert!(
            openai.strict,
            "{name} should be strict for OpenAI: {:?}",
            openai.losses
        );
        assert!(openai.losses.is_empty(), "{name}: {:?}", openai.losses);
    }
    for name in ["paint", "draw", "handle", "nothing", "notes.search"] {
        let anthropic = losses(Dialect::AnthropicStrict, &tools, name);
        assert!(anthropic.strict, "{name}: {:?}", anthropic.losses);
        assert!(
            anthropic.losses.is_empty(),
            "{name}: {:?}",
            anthropic.losses
        );
    }
}

#[test]
fn open_maps_untyped_values_and_tuples_fall_back_to_non_strict() {
    let tools = corpus();
    for (name, pointer) in [
        ("tally", "/properties/counts"),
        ("anything", "/properties/value"),
        ("pair", "/properties/pair"),
    ] {
        for d in [Dialect::OpenAiStrict, Dialect::AnthropicStrict] {
            let out = losses(d, &tools, name);
            assert!(!out.strict, "{name} {d:?}");
            // The canonical schema is sent as is: the fallback is the only loss.
            assert_eq!(
                out.schema,
                tools.spec(name).unwrap().input_schema,
                "{name} {d:?}"
            );
            assert_eq!(pointers(&out), [pointer], "{name} {d:?}");
            assert!(
                out.losses[0]
                    .reason
                    .ends_with("the tool is declared non-strict")
            );
        }
    }
}

#[test]
fn recursion_is_kept_by_openai_refused_by_anthropic_strict_and_cut_for_gemini() {
    let tools = corpus();
    let openai = losses(Dialect::OpenAiStrict, &tools, "size");
    assert!(openai.strict);
    assert_eq!(
        openai.schema["$defs"]["Node"]["properties"]["children"]["items"],
        json!({"$ref": "#/$defs/Node"})
    );
    let anthropic = losses(Dialect::AnthropicStrict, &tools, "size");
    assert!(!anthropic.strict);
    assert_eq!(
        pointers(&anthropic),
        ["/$defs/Node/properties/children/items"]
    );
    let gemini = losses(Dialect::Gemini, &tools, "size");
    assert_eq!(pointers(&gemini), ["/$defs/Node/properties/children/items"]);
    assert!(gemini.losses[0].reason.contains("recursive type `Node`"));
    let json_schema = losses(Dialect::GeminiJsonSchema, &tools, "size");
    assert!(json_schema.losses.is_empty());
}

#[test]
fn constraints_a_dialect_refuses_are_losses_where_they_were() {
    let tools = corpus();
    let openai = losses(Dialect::OpenAiStrict, &tools, "bounded");
    assert!(openai.strict);
    let reasons: Vec<(&str, &str)> = openai
        .losses
        .iter()
        .map(|l| (l.pointer.as_str(), l.reason.as_str()))
        .collect();
    assert_eq!(
        reasons,
        [
            (
                "/$defs/Bounded/properties/handle",
                "not enforced, moved into the description: pattern"
            ),
            (
                "/$defs/Bounded/properties/name",
                "not enforced, moved into the description: maxLength, minLength"
            ),
        ]
    );
    let anthropic = losses(Dialect::AnthropicStrict, &tools, "bounded");
    let reasons: Vec<&str> = anthropic.losses.iter().map(|l| l.reason.as_str()).collect();
    assert_eq!(
        reasons,
        [
            "not enforced, moved into the description: maximum, minimum",
            "not enforced, moved into the description: pattern",
            "not enforced, moved into the description: maxLength, minLength",
        ]
    );
    // Gemini keeps lengths, ranges and simple patterns; look-around goes (RE2 has none).
    let gemini = losses(Dialect::Gemini, &tools, "bounded");
    assert_eq!(pointers(&gemini), ["/$defs/Bounded/properties/handle"]);
    assert_eq!(
        gemini.schema["properties"]["item"]["properties"]["name"]["maxLength"],
        20
    );
    // u64 loses nothing (the minimum states the range); i8's range survives everywhere but
    // Anthropic strict.
    let widths = losses(Dialect::AnthropicStrict, &tools, "widths");
    assert_eq!(pointers(&widths), ["/properties/big", "/properties/small"]);
}

#[test]
fn optional_fields_of_nested_structs_that_refuse_null_are_losses_in_openai_strict() {
    let tools = corpus();
    let openai = losses(Dialect::OpenAiStrict, &tools, "search");
    // `filter` itself is `Option` and `limit` an `Option` field: null already means None.
    // `exact` is `#[serde(default)] bool`: strict mode makes it nullable, and serde refuses null.
    assert!(openai.strict);
    assert_eq!(openai.schema["required"], json!(["filter"]));
    let filter = &openai.schema["properties"]["filter"];
    assert_eq!(filter["type"], json!(["object", "null"]));
    assert_eq!(filter["required"], json!(["exact", "limit", "query"]));
    assert_eq!(
        filter["properties"]["exact"]["type"],
        json!(["boolean", "null"])
    );
    assert_eq!(pointers(&openai), ["/$defs/Filter"]);
    assert!(
        openai.losses[0]
            .reason
            .starts_with("optional `exact` is required and nullable")
    );
    // A top-level defaulted argument is different: the provider layer removes its null.
    let retry = losses(Dialect::OpenAiStrict, &tools, "retry");
    assert!(retry.losses.is_empty());
    assert_eq!(retry.absent_when_null, ["times"]);
}

#[test]
fn tuples_and_overlapping_unions_are_losses_for_gemini() {
    let tools = corpus();
    let pair = losses(Dialect::Gemini, &tools, "pair");
    assert_eq!(pointers(&pair), ["/properties/pair"]);
    assert_eq!(
        pair.schema["properties"]["pair"]["items"]["anyOf"][0]["type"],
        "INTEGER"
    );
    // Serde's tagged enums are told apart by their tag or key: `oneOf` → `anyOf` loses nothing.
    for name in ["draw", "handle", "paint"] {
        assert!(
            losses(Dialect::Gemini, &tools, name).losses.is_empty(),
            "{name}"
        );
    }
}

#[test]
fn definitions_report_losses_per_tool_and_pass_every_provider_rule() {
    let tools = corpus();
    let mut summary = Vec::new();
    for provider in Provider::ALL {
        let defs = tools.definitions(provider).unwrap();
        // `.ci/provider-peer.sh` checks these with the providers' own SDKs.
        if let Some(dir) = std::env::var_os("EXECUTOR_PROVIDER_DEFS") {
            let path = std::path::Path::new(&dir).join(format!("corpus_{provider}.json"));
            std::fs::write(path, defs.tools().to_string()).unwrap();
        }
        let (broken, strict) = dialect_rules::check_definitions(provider.as_str(), defs.tools());
        assert!(broken.is_empty(), "{}", broken.join("\n"));
        let lossy: std::collections::BTreeSet<&str> =
            defs.losses().iter().map(|l| l.tool.as_str()).collect();
        summary.push(format!(
            "{provider}: {strict} strict, {} with losses",
            lossy.len()
        ));
    }
    assert_eq!(
        summary,
        [
            "openai: 11 strict, 5 with losses",
            "openai-responses: 11 strict, 5 with losses",
            "anthropic: 0 strict, 0 with losses",
            "anthropic-strict: 10 strict, 9 with losses",
            "gemini: 0 strict, 6 with losses",
            "gemini-json-schema: 0 strict, 6 with losses",
            "mcp: 0 strict, 0 with losses",
        ]
    );
    let gemini = tools.definitions(Provider::Gemini).unwrap();
    assert!(
        gemini
            .losses()
            .iter()
            .all(|l| l.schema != SchemaRole::Request)
    );
}

#[test]
fn dotted_names_are_mapped_and_mapped_back() {
    let tools = corpus();
    let openai = tools.definitions(Provider::OpenAiChat).unwrap();
    assert_eq!(openai.provider_name("notes.search"), Some("notes_search"));
    assert_eq!(openai.tool_name("notes_search"), Some("notes.search"));
    let gemini = tools.definitions(Provider::Gemini).unwrap();
    assert_eq!(gemini.provider_name("notes.search"), Some("notes.search"));
}

/// Also named `notes_search` once the dot goes.
#[tool(name = "notes_search")]
fn other_search() -> u8 {
    0
}

#[test]
fn names_that_collide_after_mapping_are_an_error() {
    let tools = ToolSet::builder()
        .tool::<notes_search>()
        .tool::<other_search>()
        .build()
        .unwrap();
    let err = tools.definitions(Provider::Anthropic).unwrap_err();
    assert_eq!(
        err.to_string(),
        "tools `notes.search` and `notes_search` are both named `notes_search` for anthropic; rename one"
    );
    // The error is cached like a success, and other providers are unaffected.
    assert_eq!(tools.definitions(Provider::Anthropic).unwrap_err(), err);
    assert!(tools.definitions(Provider::Gemini).is_ok());
    assert!(Definitions::of(&tools, Provider::Mcp).is_ok());
}
