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
    // Only `T`'s own fns are named here; schemars' root-schema code runs once, for `Erased`,
    // instead of once per result type (every tool of a crate: BENCHMARKS.md §9).
    erased::output_schema(erased::Fns {
        name: T::schema_name,
        id: T::schema_id,
        inline: T::inline_schema,
        schema: T::json_schema,
    })
}

mod erased {
    //! schemars' `into_root_schema_for` for any type through one instantiation: `Erased`
    //! answers with the fns of the type being built, set for the length of the call.

    use std::borrow::Cow;
    use std::cell::Cell;

    use schemars::{JsonSchema, Schema, SchemaGenerator};
    use serde_json::Value;

    /// A type's `JsonSchema` fns.
    #[derive(Clone, Copy)]
    pub(super) struct Fns {
        pub(super) name: fn() -> Cow<'static, str>,
        pub(super) id: fn() -> Cow<'static, str>,
        pub(super) inline: fn() -> bool,
        pub(super) schema: fn(&mut SchemaGenerator) -> Schema,
    }

    thread_local! {
        /// The type `Erased` stands for, while `output_schema` builds its schema.
        static CURRENT: Cell<Option<Fns>> = const { Cell::new(None) };
    }

    fn current() -> Fns {
        CURRENT
            .get()
            .expect("Erased is only used inside erased::output_schema")
    }

    enum Erased {}

    impl JsonSchema for Erased {
        fn inline_schema() -> bool {
            (current().inline)()
        }
        fn schema_name() -> Cow<'static, str> {
            (current().name)()
        }
        fn schema_id() -> Cow<'static, str> {
            (current().id)()
        }
        fn json_schema(generator: &mut SchemaGenerator) -> Schema {
            (current().schema)(generator)
        }
    }

    /// Puts back the outer type (a result type's `json_schema` could itself call
    /// `output_schema`), also on unwinding.
    struct Restore(Option<Fns>);

    impl Drop for Restore {
        fn drop(&mut self) {
            CURRENT.set(self.0);
        }
    }

    pub(super) fn output_schema(fns: Fns) -> Value {
        let _restore = Restore(CURRENT.replace(Some(fns)));
        let mut schema = super::generator(true)
            .into_root_schema_for::<Erased>()
            .to_value();
        if let Value::Object(root) = &mut schema {
            root.remove("$schema");
            root.remove("title");
        }
        schema
    }
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

#[cfg(test)]
mod tests {
    use schemars::JsonSchema;
    use serde::Serialize;
    use serde_json::{Value, json};

    use super::{generator, output_schema};

    /// What `output_schema` returned before it went through `erased`: schemars' own root
    /// schema for `T`.
    fn direct<T: JsonSchema>() -> Value {
        let mut schema = generator(true).into_root_schema_for::<T>().to_value();
        let root = schema.as_object_mut().unwrap();
        root.remove("$schema");
        root.remove("title");
        schema
    }

    #[derive(Serialize, JsonSchema)]
    struct Leaf {
        id: u32,
    }

    /// Recursive (a reference to the root) and nested (a definition).
    #[derive(Serialize, JsonSchema)]
    struct Tree {
        leaf: Leaf,
        children: Vec<Tree>,
        note: Option<String>,
    }

    #[test]
    fn the_erased_root_schema_is_schemars_own() {
        let tree = output_schema::<Tree>();
        assert_eq!(tree, direct::<Tree>());
        assert_eq!(
            tree["properties"]["children"]["items"],
            json!({"$ref": "#"})
        );
        assert_eq!(tree["properties"]["leaf"], json!({"$ref": "#/$defs/Leaf"}));
        assert_eq!(output_schema::<Option<Leaf>>(), direct::<Option<Leaf>>());
        assert_eq!(output_schema::<Vec<Tree>>(), direct::<Vec<Tree>>());
        assert_eq!(
            output_schema::<i64>(),
            json!({"type": "integer", "format": "int64"})
        );
    }
}
