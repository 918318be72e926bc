//! Schemas: the canonical JSON Schema 2020-12 of tool inputs and outputs, built with schemars
//! 1.x once per tool and process.
//!
//! Inputs are objects with one property per parameter, `required` listing the parameters that
//! are neither `Option` nor defaulted, and `additionalProperties: false` because the decoder
//! rejects unknown keys. Neither root carries `$schema` (MCP reads 2020-12 when it is absent,
//! and several clients choke on the URI) nor a root `title`.

pub mod dialect;
pub(crate) mod lenient;

use schemars::JsonSchema;
use schemars::generate::{SchemaGenerator, SchemaSettings};
use serde_json::{Map, Value};

pub(crate) mod support {
    //! What only generated code calls (re-exported from `__private`).

    use serde_json::Value;

    /// Parses a schema the macro computed at compile time.
    ///
    /// # Panics
    /// Never for macro output: the macro only emits JSON it produced itself.
    #[must_use]
    pub fn literal(json: &'static str) -> Value {
        serde_json::from_str(json)
            .expect("#[tool] emitted invalid schema JSON; please report this bug")
    }
}

/// What a tool's argument and result types must be: every `schemars::JsonSchema` type is one.
/// It exists for its compile error, which says what to derive where rustc would only name the
/// missing trait.
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no JSON Schema, which a tool needs for its arguments and its result",
    label = "derive `schemars::JsonSchema` for this type",
    note = "add `#[derive(schemars::JsonSchema)]` (schemars 1) next to its serde derive; for a type from another crate, wrap it in a type of yours"
)]
pub trait ToolSchema: JsonSchema {}

impl<T: JsonSchema + ?Sized> ToolSchema for T {}

fn generator(serialize: bool) -> SchemaGenerator {
    let settings = SchemaSettings::draft2020_12();
    let settings = if serialize {
        settings.for_serialize()
    } else {
        settings
    };
    settings.into_generator()
}

/// The schema of a tool's result type `T` (serialize contract), without `$schema` or root title.
#[must_use]
pub fn output_schema<T: ToolSchema + ?Sized>() -> Value {
    let mut schema = generator(true).into_root_schema_for::<T>().to_value();
    if let Value::Object(root) = &mut schema {
        root.remove("$schema");
        root.remove("title");
    }
    schema
}

/// Builds the object schema of a parameter list whose types the macro could not see through.
///
/// ```
/// use tool_executor::schema::InputSchema;
///
/// let schema = InputSchema::new()
///     .param::<String>("city", Some("City name"), true)
///     .param::<Option<u8>>("days", None, false)
///     .finish();
/// assert_eq!(schema["required"], serde_json::json!(["city"]));
/// assert_eq!(schema["additionalProperties"], false);
/// ```
pub struct InputSchema {
    generator: SchemaGenerator,
    properties: Map<String, Value>,
    required: Vec<Value>,
}

impl Default for InputSchema {
    fn default() -> Self {
        Self::new()
    }
}

impl InputSchema {
    /// An object schema with no properties yet.
    #[must_use]
    pub fn new() -> Self {
        Self {
            generator: generator(false),
            properties: Map::new(),
            required: Vec::new(),
        }
    }

    /// Adds parameter `name` of type `T`.
    #[must_use]
    pub fn param<T: ToolSchema + ?Sized>(
        mut self,
        name: &str,
        description: Option<&str>,
        required: bool,
    ) -> Self {
        let mut schema = self.generator.subschema_for::<T>().to_value();
        if let (Some(text), Value::Object(obj)) = (description, &mut schema) {
            obj.insert("description".to_owned(), Value::String(text.to_owned()));
        }
        self.properties.insert(name.to_owned(), schema);
        if required {
            self.required.push(Value::String(name.to_owned()));
        }
        self
    }

    /// The finished schema.
    #[must_use]
    pub fn finish(mut self) -> Value {
        let mut root = Map::new();
        root.insert("type".to_owned(), "object".into());
        root.insert("properties".to_owned(), Value::Object(self.properties));
        if !self.required.is_empty() {
            root.insert("required".to_owned(), Value::Array(self.required));
        }
        root.insert("additionalProperties".to_owned(), false.into());
        let defs = self.generator.take_definitions(true);
        if !defs.is_empty() {
            root.insert("$defs".to_owned(), Value::Object(defs));
        }
        Value::Object(root)
    }
}
