//! An agent card as tools: one per skill, with the real schemas when the card carries them.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::sync::Arc;
use std::time::Duration;

use a2a_protocol_types::agent_card::{AgentCard, AgentSkill};
use serde_json::{Map, Value, json};

use crate::agent::tools::TOOL_SCHEMAS_EXTENSION;
use crate::tool::SpecList;
use crate::tool::{ToolAnnotations, ToolSpec};

/// The argument a text skill takes: the message to send.
pub(super) const TEXT_ARGUMENT: &str = "text";

/// How a call of one tool reaches the agent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Input {
    /// The skill published a schema (the card's tool-schemas extension): a data part
    /// `{"tool": SKILL, "arguments": {…}}`, as [`ToolAgent`](crate::agent::ToolAgent) reads.
    Data,
    /// A plain skill: a text part holding the `text` argument.
    Text,
}

pub(super) struct Catalog {
    pub(super) specs: SpecList,
    pub(super) routes: HashMap<String, Input>,
}

/// The tools `card` offers. A skill the tool-schemas extension describes is a tool with that
/// input schema (and output schema); any other skill takes one string, `text`.
pub(super) fn catalog(card: &AgentCard) -> Catalog {
    let schemas = published_schemas(card);
    let mut specs = Vec::with_capacity(card.skills.len());
    let mut routes = HashMap::with_capacity(card.skills.len());
    for skill in &card.skills {
        let (spec, input) = match schemas.and_then(|s| s.get(&skill.id)) {
            Some(entry) if entry.get("inputSchema").is_some_and(Value::is_object) => {
                (published_spec(skill, entry), Input::Data)
            }
            _ => (base_spec(skill, text_schema(skill)), Input::Text),
        };
        routes.insert(spec.name.clone(), input);
        specs.push(Arc::new(spec));
    }
    Catalog {
        specs: specs.into(),
        routes,
    }
}

/// `{"<skill id>": {"inputSchema": …, "outputSchema": …}}` from the card's tool-schemas
/// extension, if it has one.
fn published_schemas(card: &AgentCard) -> Option<&Map<String, Value>> {
    card.capabilities
        .extensions
        .as_ref()?
        .iter()
        .find(|e| e.uri == TOOL_SCHEMAS_EXTENSION)?
        .params
        .as_ref()?
        .get("skills")?
        .as_object()
}

/// The spec of a skill the tool-schemas extension describes: its schemas, and its hints,
/// failure codes and time limit when the entry carries them (what
/// [`ToolAgent`](crate::agent::ToolAgent) publishes). Hints the entry does not carry come from
/// the skill's tags, which can only say `true`; a malformed field is left out, as a peer's card
/// is not ours to reject.
fn published_spec(skill: &AgentSkill, entry: &Value) -> ToolSpec {
    let mut spec = base_spec(skill, entry["inputSchema"].clone());
    if let Some(output) = entry.get("outputSchema").filter(|s| s.is_object()) {
        spec.output_schema = Some(output.clone());
    }
    if let Some(annotations) = entry
        .get("annotations")
        .and_then(|a| serde_json::from_value::<ToolAnnotations>(a.clone()).ok())
    {
        spec.annotations = ToolAnnotations {
            title: annotations.title.or(spec.annotations.title),
            ..annotations
        };
    }
    if let Some(codes) = entry
        .get("failureCodes")
        .and_then(|c| serde_json::from_value::<Vec<String>>(c.clone()).ok())
    {
        spec.failure_codes = codes;
    }
    if let Some(ms) = entry.get("timeoutMs").and_then(Value::as_u64) {
        spec.timeout = Some(Duration::from_millis(ms));
    }
    spec
}

fn base_spec(skill: &AgentSkill, input_schema: Value) -> ToolSpec {
    let has = |tag: &str| skill.tags.iter().any(|t| t == tag).then_some(true);
    let annotations = ToolAnnotations {
        title: (skill.name != skill.id).then(|| skill.name.clone()),
        read_only: has("read-only"),
        destructive: has("destructive"),
        idempotent: has("idempotent"),
        open_world: has("open-world"),
    };
    ToolSpec::new(skill.id.clone(), skill.description.clone(), input_schema)
        .with_annotations(annotations)
}

fn text_schema(skill: &AgentSkill) -> Value {
    let mut description = format!("The message to send to the agent's `{}` skill.", skill.id);
    if let Some(example) = skill.examples.as_ref().and_then(|e| e.first()) {
        let _ = write!(description, " For example: {example}");
    }
    json!({
        "type": "object",
        "properties": {TEXT_ARGUMENT: {"type": "string", "description": description}},
        "required": [TEXT_ARGUMENT],
        "additionalProperties": false
    })
}

#[cfg(test)]
mod tests {
    use a2a_protocol_types::agent_card::{AgentCapabilities, AgentInterface};
    use a2a_protocol_types::extensions::AgentExtension;

    use super::*;

    #[test]
    fn published_hints_failure_codes_and_timeouts_are_read_as_given() {
        let mut card = AgentCard::new("t", "1", AgentInterface::jsonrpc("http://127.0.0.1:1"))
            .with_capabilities(AgentCapabilities::none())
            .with_skill(AgentSkill::new("book", "Book", "Books.").with_tags(["tool"]));
        card.capabilities.extensions = Some(vec![AgentExtension {
            uri: TOOL_SCHEMAS_EXTENSION.to_owned(),
            description: None,
            required: Some(false),
            params: Some(json!({"skills": {"book": {
                "inputSchema": {"type": "object"},
                "annotations": {"idempotentHint": false, "destructiveHint": false},
                "failureCodes": ["busy", "sold_out"],
                "timeoutMs": 5000
            }}})),
        }]);
        let book = &catalog(&card).specs[0];
        assert_eq!(
            book.annotations,
            ToolAnnotations {
                title: Some("Book".to_owned()),
                idempotent: Some(false),
                destructive: Some(false),
                ..ToolAnnotations::default()
            }
        );
        assert_eq!(book.failure_codes, ["busy", "sold_out"]);
        assert_eq!(book.timeout, Some(Duration::from_secs(5)));
    }

    #[test]
    fn published_skills_take_data_and_others_text() {
        let mut card = AgentCard::new("t", "1", AgentInterface::jsonrpc("http://127.0.0.1:1"))
            .with_capabilities(AgentCapabilities::none())
            .with_skill(AgentSkill::new("add", "Add", "Adds.").with_tags(["tool", "read-only"]))
            .with_skill(AgentSkill::new("chat", "chat", "Chats.").with_examples(["hi"]));
        card.capabilities.extensions = Some(vec![AgentExtension {
            uri: TOOL_SCHEMAS_EXTENSION.to_owned(),
            description: None,
            required: Some(false),
            params: Some(json!({"skills": {"add": {
                "inputSchema": {"type": "object", "required": ["a"]},
                "outputSchema": {"type": "integer"}
            }}})),
        }]);
        let catalog = catalog(&card);
        assert_eq!(catalog.routes["add"], Input::Data);
        assert_eq!(catalog.routes["chat"], Input::Text);
        let add = &catalog.specs[0];
        assert_eq!(
            add.input_schema,
            json!({"type": "object", "required": ["a"]})
        );
        assert_eq!(add.output_schema, Some(json!({"type": "integer"})));
        assert_eq!(add.annotations.title.as_deref(), Some("Add"));
        assert_eq!(add.annotations.read_only, Some(true));
        assert_eq!(add.annotations.destructive, None);
        assert!(add.failure_codes.is_empty());
        assert_eq!(add.timeout, None);
        let chat = &catalog.specs[1];
        assert_eq!(chat.annotations.title, None);
        assert_eq!(chat.output_schema, None);
        assert_eq!(
            chat.input_schema["properties"]["text"]["description"],
            "The message to send to the agent's `chat` skill. For example: hi"
        );
    }
}
