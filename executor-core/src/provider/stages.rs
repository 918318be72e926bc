//! The logic every provider shares, stage by stage; what differs is each provider's [`Wire`]
//! (in `openai.rs`, `anthropic.rs`, `gemini.rs`, `mcp.rs`).
//!
//! - **Names**: every character a provider refuses becomes `_`, a name is cut at the limit,
//!   and a name that must start with a letter or `_` gets a `_` in front. Two tools that map
//!   to one name are an error ([`NameCollision`]), never a silent shadowing.
//! - **Declaring**: each schema through the provider's dialect ([`Dialect`]), each change of
//!   meaning a [`ToolLoss`], each tool in the provider's shape.
//! - **Reading calls**: each parser takes the whole response, the message (or content) inside
//!   it, or the bare list, so a program can hand over whatever it holds. Arguments that do not
//!   parse are not an error for the program: the call carries an invalid-arguments failure,
//!   which is answered to the model like any other.
//! - **Arguments** back in our declared shape: `null`s that mean "not given" removed (OpenAI
//!   strict), renamed parameters under their own names again (Gemini).
//! - **Answering**: a result is the output (a string as it is, anything else as JSON text;
//!   for Gemini the value under `response.output`). A failure is `{"error": {"message",
//!   "code", "kind", "classification", "retryable", "retry_after_ms"?, "data"?}}`, from the
//!   failure table ([`failure::transport`](crate::failure::transport)): `retryable` tells the
//!   model whether calling again can help, and a redacted failure's text and data stay
//!   withheld. A model is a caller that can change its arguments, so an ordinary
//!   invalid-arguments failure is retryable for it, although a runtime never resends the same
//!   call ([`for_retry`] says stop).
//!
//! [`Dialect`]: crate::schema::dialect::Dialect

use std::collections::HashMap;
use std::sync::Arc;

use serde_json::{Map, Value};

use super::definitions::{
    CallsError, Declared, Definitions, NameCollision, Provider, SchemaRole, ToolCall, ToolLoss,
};
use super::wire::{Layout, Wire, text_at};
use super::{anthropic, gemini, mcp, openai};
use crate::schema::dialect::Loss;
use crate::tool::route::RouteTable;
use crate::tool::{ToolExecutor, ToolSet, ToolSpec};

impl Provider {
    /// How this provider behaves at every stage (its file: `openai.rs`, `anthropic.rs`,
    /// `gemini.rs`, `mcp.rs`).
    pub(super) const fn wire(self) -> &'static Wire {
        match self {
            Self::OpenAiChat => &openai::CHAT,
            Self::OpenAiResponses => &openai::RESPONSES,
            Self::Anthropic => &anthropic::STANDARD,
            Self::AnthropicStrict => &anthropic::STRICT,
            Self::Gemini => &gemini::OPENAPI,
            Self::GeminiJsonSchema => &gemini::JSON_SCHEMA,
            Self::Mcp => &mcp::MCP,
        }
    }
}

impl Definitions {
    /// The definitions of `specs` for `provider`.
    ///
    /// # Errors
    /// [`NameCollision`] when two tools map to one provider name.
    pub fn from_specs(specs: &[Arc<ToolSpec>], provider: Provider) -> Result<Self, NameCollision> {
        build(specs, provider)
    }

    /// The definitions of everything `executor` lists ([`ToolExecutor::specs`]), computed
    /// anew on each call; [`ToolSet::definitions`] caches them.
    ///
    /// # Errors
    /// [`NameCollision`] when two tools map to one provider name.
    pub fn of<E: ToolExecutor + ?Sized>(
        executor: &E,
        provider: Provider,
    ) -> Result<Self, NameCollision> {
        Self::from_specs(&executor.specs(), provider)
    }
}

// ---- Declaring ----

/// The definitions of `specs` for `provider`: each tool's name mapped and checked for
/// collisions, its schemas through the provider's dialect, in the provider's shape.
pub(super) fn build(
    specs: &[Arc<ToolSpec>],
    provider: Provider,
) -> Result<Definitions, NameCollision> {
    let wire = provider.wire();
    let mut taken: HashMap<String, &str> = HashMap::new();
    let mut declared = Vec::with_capacity(specs.len());
    let mut tools = Vec::with_capacity(specs.len());
    let mut losses = Vec::new();
    let mut strict = Vec::new();
    for spec in specs {
        let provider_name = wire.names.map(&spec.name);
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
        let output = match &spec.output_schema {
            Some(schema) if wire.declares_output => {
                let out = provider.dialect().output(schema);
                push_losses(&mut losses, &spec.name, SchemaRole::Output, &out.losses);
                Some(out.schema)
            }
            _ => None,
        };
        if input.strict {
            strict.push(input.schema.clone());
        }
        tools.push((wire.declare)(spec, &provider_name, &input, output));
        declared.push(Declared {
            provider_name,
            name: spec.name.clone(),
            absent_when_null: input.absent_when_null,
            renamed_arguments: input.renamed_arguments,
            asks_user: spec.asks_user,
        });
    }
    if let Some(request_limits) = wire.request_limits {
        request_limits(&strict, &mut losses);
    }
    let tools = (wire.tools)(tools);
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

// ---- Reading calls ----

/// The tool calls in `response`, in the order sent, each read when the iterator reaches it
/// (a single call is answered without collecting a list).
pub(super) fn each(
    provider: Provider,
    response: &Value,
) -> Result<impl Iterator<Item = Result<ToolCall<'_>, CallsError>>, CallsError> {
    let layout = provider
        .wire()
        .calls
        .map_err(|why| CallsError(why.to_owned()))?;
    let items = list(response, layout.paths, layout.what)?;
    Ok(items
        .iter()
        .filter_map(layout.call)
        .map(move |call| read(call, layout)))
}

/// The array at the first path that holds one, or `value` itself when it is an array. A
/// segment of one digit is an array index, any other an object key.
fn list<'a>(value: &'a Value, paths: &[&[&str]], what: &str) -> Result<&'a [Value], CallsError> {
    if let Value::Array(items) = value {
        return Ok(items);
    }
    for path in paths {
        let mut at = value;
        for key in *path {
            at = match key.as_bytes() {
                [digit @ b'0'..=b'9'] => at.get(usize::from(digit - b'0')),
                _ => at.get(*key),
            }
            .unwrap_or(&Value::Null);
        }
        if let Value::Array(items) = at {
            return Ok(items);
        }
    }
    // An assistant message without tool calls has none to answer.
    let message = paths
        .iter()
        .any(|p| p.len() > 1 && value.get(p[0]).is_some());
    if message || value.get("role").is_some() {
        return Ok(&[]);
    }
    Err(CallsError(format!("no {what} in the response")))
}

fn read<'a>(call: &'a Value, layout: &Layout) -> Result<ToolCall<'a>, CallsError> {
    let function = (layout.function)(call);
    let name = text_at(function, "name").ok_or_else(|| missing(layout.what, call))?;
    Ok(ToolCall {
        id: layout.ids.iter().find_map(|k| text_at(call, k)),
        name,
        arguments: (layout.decode)(function.get(layout.arguments)),
    })
}

fn missing(what: &str, item: &Value) -> CallsError {
    CallsError(format!("a call in {what} without a string `name`: {item}"))
}

// ---- Arguments ----

impl Declared {
    /// Whether `args` need [`restore`](Self::restore): a `null` for an argument whose `null`
    /// means "not given", or an argument under its declared name. Most calls need neither, so
    /// they are decoded without a copy.
    pub(super) fn rewrites(&self, args: &Map<String, Value>) -> bool {
        self.absent_when_null
            .iter()
            .any(|name| args.get(name).is_some_and(Value::is_null))
            || self
                .renamed_arguments
                .iter()
                .any(|(declared, _)| args.contains_key(declared))
    }

    /// `args` with those `null`s removed and renamed arguments under our names.
    pub(super) fn restore(&self, args: &Map<String, Value>) -> Map<String, Value> {
        args.iter()
            .filter(|(k, v)| !(v.is_null() && self.absent_when_null.contains(k)))
            .map(|(k, v)| {
                let ours = self
                    .renamed_arguments
                    .iter()
                    .find(|(declared, _)| declared == k)
                    .map_or(k, |(_, ours)| ours);
                (ours.clone(), v.clone())
            })
            .collect()
    }
}

impl ToolSet {
    /// This set's tool definitions for `provider`, computed on first use and shared after.
    ///
    /// ```
    /// use tool_executor::prelude::*;
    /// use tool_executor::provider::Provider;
    ///
    /// /// Adds two integers.
    /// #[tool]
    /// fn add(a: i64, b: i64) -> i64 { a + b }
    ///
    /// let tools = toolset![add];
    /// let defs = tools.definitions(Provider::Gemini).unwrap();
    /// assert_eq!(
    ///     serde_json::to_value(&*defs).unwrap()[0]["functionDeclarations"][0]["parameters"]["type"],
    ///     "OBJECT"
    /// );
    /// // The second call hands out the same definitions.
    /// assert!(std::sync::Arc::ptr_eq(&defs, &tools.definitions(Provider::Gemini).unwrap()));
    /// ```
    ///
    /// # Errors
    /// [`NameCollision`] when two of the set's tools map to one provider name.
    pub fn definitions(&self, provider: Provider) -> Result<Arc<Definitions>, NameCollision> {
        self.definitions_cache().0[provider.index()]
            .get_or_init(|| Definitions::from_specs(self.list(), provider).map(Arc::new))
            .clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map(provider: Provider, name: &str) -> String {
        provider.wire().names.map(name)
    }

    #[test]
    fn dotted_names_lose_the_dot_where_refused() {
        assert_eq!(map(Provider::OpenAiChat, "notes.search"), "notes_search");
        assert_eq!(
            map(Provider::AnthropicStrict, "notes.search"),
            "notes_search"
        );
        assert_eq!(map(Provider::Gemini, "notes.search"), "notes.search");
        assert_eq!(map(Provider::Mcp, "notes.search"), "notes.search");
    }

    #[test]
    fn gemini_names_start_with_a_letter_or_underscore() {
        assert_eq!(map(Provider::Gemini, "1st-tool"), "_1st-tool");
        assert_eq!(map(Provider::OpenAiChat, "1st-tool"), "1st-tool");
        assert_eq!(map(Provider::Gemini, "wetter/über"), "wetter__ber");
    }

    #[test]
    fn names_are_cut_at_the_limit() {
        let long = "a".repeat(200);
        assert_eq!(map(Provider::OpenAiResponses, &long).len(), 64);
        assert_eq!(map(Provider::Gemini, &long).len(), 128);
        assert_eq!(map(Provider::Anthropic, ""), "_");
    }
}
