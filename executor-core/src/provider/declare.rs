//! Each provider's tool definition shape, built from specs through the schema dialects.

use std::collections::HashMap;
use std::sync::Arc;

use serde_json::{Map, Value, json};

use super::names::{self, NameCollision};
use super::{Declared, Definitions, Provider, SchemaRole, ToolLoss};
use crate::schema::dialect::{Loss, Transformed};
use crate::tool::ToolSpec;
use crate::tool::route::RouteTable;

/// Anthropic's per-request limits for strict tools (`docs/providers.md` §5.2).
const ANTHROPIC_STRICT_TOOLS: usize = 20;
const ANTHROPIC_OPTIONAL_PARAMETERS: usize = 24;
const ANTHROPIC_UNION_PARAMETERS: usize = 16;

pub(super) fn build(
    specs: &[Arc<ToolSpec>],
    provider: Provider,
) -> Result<Definitions, NameCollision> {
    let mut taken: HashMap<String, &str> = HashMap::new();
    let mut declared = Vec::with_capacity(specs.len());
    let mut tools = Vec::with_capacity(specs.len());
    let mut losses = Vec::new();
    let mut strict = Vec::new();
    for spec in specs {
        let provider_name = names::map(provider, &spec.name);
        if let Some(first) = taken.insert(provider_name.clone(), &spec.name) {
            return Err(NameCollision {
                provider,
                mapped: provider_name,
                first: first.to_owned(),
                second: spec.name.clone(),
            });
        }
        let input = provider.dialect().input(&spec.input_schema);
        push_losses(&mut losses, &spec.name, SchemaRole::Input, &input.losses);
        let output = match (provider, &spec.output_schema) {
            (Provider::Gemini | Provider::GeminiJsonSchema | Provider::Mcp, Some(schema)) => {
                let out = provider.dialect().output(schema);
                push_losses(&mut losses, &spec.name, SchemaRole::Output, &out.losses);
                Some(out.schema)
            }
            _ => None,
        };
        if input.strict {
            strict.push(input.schema.clone());
        }
        tools.push(shape(provider, spec, &provider_name, &input, output));
        declared.push(Declared {
            provider_name,
            name: spec.name.clone(),
            absent_when_null: input.absent_when_null,
            renamed_arguments: input.renamed_arguments,
        });
    }
    if provider == Provider::AnthropicStrict {
        request_limits(&strict, &mut losses);
    }
    let tools = match provider {
        Provider::Gemini | Provider::GeminiJsonSchema => {
            json!([{ "functionDeclarations": tools }])
        }
        _ => Value::Array(tools),
    };
    let by_provider_name = RouteTable::new(
        declared
            .iter()
            .enumerate()
            .map(|(index, d)| (d.provider_name.clone(), index)),
    );
    Ok(Definitions {
        provider,
        tools,
        declared,
        by_provider_name,
        losses,
    })
}

fn push_losses(out: &mut Vec<ToolLoss>, tool: &str, schema: SchemaRole, losses: &[Loss]) {
    out.extend(losses.iter().map(|l| ToolLoss {
        tool: tool.to_owned(),
        schema,
        pointer: l.pointer.clone(),
        reason: l.reason.clone(),
    }));
}

/// One tool in the provider's request shape.
fn shape(
    provider: Provider,
    spec: &ToolSpec,
    name: &str,
    input: &Transformed,
    output: Option<Value>,
) -> Value {
    let mut tool = Map::new();
    tool.insert("name".into(), name.into());
    if provider == Provider::Mcp
        && let Some(title) = &spec.annotations.title
    {
        tool.insert("title".into(), title.as_str().into());
    }
    if !spec.description.is_empty() {
        tool.insert("description".into(), spec.description.as_str().into());
    }
    let (input_key, output_key) = match provider {
        Provider::OpenAiChat | Provider::OpenAiResponses => ("parameters", None),
        Provider::Anthropic | Provider::AnthropicStrict => ("input_schema", None),
        Provider::Gemini => ("parameters", Some("response")),
        Provider::GeminiJsonSchema => ("parametersJsonSchema", Some("responseJsonSchema")),
        Provider::Mcp => ("inputSchema", Some("outputSchema")),
    };
    tool.insert(input_key.into(), input.schema.clone());
    if let (Some(key), Some(schema)) = (output_key, output) {
        tool.insert(key.into(), schema);
    }
    match provider {
        Provider::OpenAiChat => {
            tool.insert("strict".into(), input.strict.into());
            json!({ "type": "function", "function": tool })
        }
        Provider::OpenAiResponses => {
            tool.insert("strict".into(), input.strict.into());
            let mut typed = Map::new();
            typed.insert("type".into(), "function".into());
            typed.extend(tool);
            Value::Object(typed)
        }
        Provider::AnthropicStrict if input.strict => {
            tool.insert("strict".into(), true.into());
            Value::Object(tool)
        }
        Provider::Mcp => {
            if let Ok(Value::Object(hints)) = serde_json::to_value(&spec.annotations)
                && !hints.is_empty()
            {
                tool.insert("annotations".into(), Value::Object(hints));
            }
            Value::Object(tool)
        }
        _ => Value::Object(tool),
    }
}

/// Anthropic counts strict tools, optional parameters and union-typed parameters per request.
fn request_limits(strict: &[Value], losses: &mut Vec<ToolLoss>) {
    let mut optional = 0;
    let mut unions = 0;
    for schema in strict {
        let required: Vec<&Value> = schema
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().collect())
            .unwrap_or_default();
        let props = schema.get("properties").and_then(Value::as_object);
        for (name, prop) in props.into_iter().flatten() {
            optional += usize::from(!required.iter().any(|r| *r == name));
            unions += usize::from(
                prop.get("anyOf").is_some() || prop.get("type").is_some_and(Value::is_array),
            );
        }
    }
    let checks = [
        (strict.len(), ANTHROPIC_STRICT_TOOLS, "strict tools"),
        (
            optional,
            ANTHROPIC_OPTIONAL_PARAMETERS,
            "optional parameters in strict tools",
        ),
        (
            unions,
            ANTHROPIC_UNION_PARAMETERS,
            "union-typed parameters in strict tools",
        ),
    ];
    for (count, limit, what) in checks {
        if count > limit {
            losses.push(ToolLoss {
                tool: String::new(),
                schema: SchemaRole::Request,
                pointer: String::new(),
                reason: format!(
                    "{count} {what}: Anthropic accepts at most {limit} per request (\"schema is too complex\")"
                ),
            });
        }
    }
}
