//! Gemini: OpenAPI schemas ([`OPENAPI`]) or JSON Schema ([`JSON_SCHEMA`]), at every stage.
//!
//! | stage | behaviour |
//! |---|---|
//! | names | a letter or `_` first (else a `_` in front), then `[A-Za-z0-9_.:-]`, at most 128 characters |
//! | definition | `[{"functionDeclarations":[{name, description, parameters, response}]}]`; JSON Schema: `parametersJsonSchema`, `responseJsonSchema` |
//! | schemas | the Gemini dialects ([`Dialect::Gemini`], [`Dialect::GeminiJsonSchema`]), output schemas included; renamed parameters go back to their own names |
//! | calls | `candidates[0].content.parts[]` with `functionCall: {name, args, id?}` |
//! | arguments | an object, numbers as doubles (`2.0` for an integer) |
//! | answer | one user content of `{"functionResponse":{name,id,response}}` parts; a result under `response.output` |
//!
//! [`Dialect::Gemini`]: crate::schema::dialect::Dialect::Gemini
//! [`Dialect::GeminiJsonSchema`]: crate::schema::dialect::Dialect::GeminiJsonSchema

use std::borrow::Cow;

use serde_json::{Map, Value};

use super::definitions::ToolCall;
use super::wire::{Layout, Names, Wire, failure_body, named, object, object_arguments};
use crate::failure::ToolFailure;
use crate::schema::dialect::{Transformed, integral_floats_to_integers};
use crate::tool::ToolSpec;

/// Gemini with OpenAPI schemas (`parameters`, `response`).
pub(super) const OPENAPI: Wire = Wire {
    names: NAMES,
    declares_output: true,
    declare: declare_openapi,
    tools: function_declarations,
    request_limits: None,
    calls: Ok(&CALLS),
    answer: function_response,
    group: Some("parts"),
};

/// Gemini with `parametersJsonSchema` / `responseJsonSchema`.
pub(super) const JSON_SCHEMA: Wire = Wire {
    declare: declare_json_schema,
    ..OPENAPI
};

const NAMES: Names = Names {
    max: 128,
    extra: &['_', '-', '.', ':'],
    letter_first: true,
};

fn declare_openapi(
    spec: &ToolSpec,
    name: &str,
    input: &Transformed,
    output: Option<Value>,
) -> Value {
    declare(spec, name, input, output, ("parameters", "response"))
}

fn declare_json_schema(
    spec: &ToolSpec,
    name: &str,
    input: &Transformed,
    output: Option<Value>,
) -> Value {
    let keys = ("parametersJsonSchema", "responseJsonSchema");
    declare(spec, name, input, output, keys)
}

fn declare(
    spec: &ToolSpec,
    name: &str,
    input: &Transformed,
    output: Option<Value>,
    (input_key, output_key): (&str, &str),
) -> Value {
    let mut tool = named(name, None, &spec.description);
    tool.insert(input_key.into(), input.schema.clone());
    if let Some(schema) = output {
        tool.insert(output_key.into(), schema);
    }
    Value::Object(tool)
}

/// `[{"functionDeclarations": tools}]`, the tools moved in.
fn function_declarations(tools: Vec<Value>) -> Value {
    Value::Array(vec![object([("functionDeclarations", tools.into())])])
}

const CALLS: Layout = Layout {
    paths: &[&["candidates", "0", "content", "parts"], &["parts"]],
    what: "`parts`",
    call: |part| part.get("functionCall"),
    function: |call| call,
    ids: &["id"],
    arguments: "args",
    decode: integral_doubles,
};

/// Gemini's numbers are doubles (protobuf `Struct`): `2.0` for an integer.
fn integral_doubles(raw: Option<&Value>) -> Result<Cow<'_, Value>, ToolFailure> {
    let mut args = object_arguments(raw)?.into_owned();
    integral_floats_to_integers(&mut args);
    Ok(Cow::Owned(args))
}

/// `{"functionResponse": {name, id?, response}}`: the output under `response.output`, or the
/// failure's body.
pub(super) fn function_response(
    call: &ToolCall<'_>,
    result: Result<Cow<'_, Value>, &ToolFailure>,
) -> Value {
    let response = match result {
        Ok(value) => object([("output", value.into_owned())]),
        Err(failure) => failure_body(failure),
    };
    let mut fields = Map::new();
    fields.insert("name".into(), call.name.into());
    if let Some(id) = call.id {
        fields.insert("id".into(), id.into());
    }
    fields.insert("response".into(), response);
    object([("functionResponse", Value::Object(fields))])
}
