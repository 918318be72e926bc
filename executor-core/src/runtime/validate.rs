//! With feature `validate`, a tool's output schema, checked on each success
//! ([`Config::check`](super::config::Config) runs it after `check.rs`'s I-JSON and effect checks).

#[cfg(feature = "validate")]
pub(super) use schema::Validators;

#[cfg(feature = "validate")]
mod schema {
    use std::collections::HashMap;
    use std::sync::OnceLock;

    use serde_json::{Value, json};

    use crate::failure::{FailureKind, ToolFailure};
    use crate::tool::SpecList;

    /// The output schemas of an executor's tools, each compiled on the tool's first checked
    /// output and kept for the runtime's life.
    pub(in crate::runtime) struct Validators {
        by_tool: HashMap<String, Compiled>,
    }

    struct Compiled {
        schema: Value,
        validator: OnceLock<Result<jsonschema::Validator, String>>,
    }

    impl Validators {
        /// The output schemas `specs` list; a tool without one is not validated.
        pub(in crate::runtime) fn new(specs: &SpecList) -> Self {
            let by_tool = specs
                .iter()
                .filter_map(|spec| {
                    let schema = spec.output_schema.clone()?;
                    let compiled = Compiled {
                        schema,
                        validator: OnceLock::new(),
                    };
                    Some((spec.name.clone(), compiled))
                })
                .collect();
            Self { by_tool }
        }

        /// Whether `output` of `tool` matches the tool's output schema; the first mismatch
        /// found is the failure (`output_schema_mismatch`, with the instance's pointer and the
        /// schema keyword's). A schema that does not compile fails every output checked
        /// against it (`invalid_output_schema`): the tool declared something the runtime
        /// cannot check.
        pub(in crate::runtime) fn check(
            &self,
            tool: &str,
            output: &Value,
        ) -> Result<(), ToolFailure> {
            let Some(compiled) = self.by_tool.get(tool) else {
                return Ok(());
            };
            let validator = compiled
                .validator
                .get_or_init(|| {
                    jsonschema::validator_for(&compiled.schema).map_err(|e| e.to_string())
                })
                .as_ref()
                .map_err(|why| invalid_schema(tool, why))?;
            match validator.validate(output) {
                Ok(()) => Ok(()),
                Err(error) => Err(mismatch(tool, &error)),
            }
        }
    }

    fn mismatch(tool: &str, error: &jsonschema::ValidationError<'_>) -> ToolFailure {
        let pointer = error.instance_path.to_string();
        let keyword = error.schema_path.to_string();
        let at = if pointer.is_empty() { "/" } else { &pointer };
        ToolFailure::terminal(format!(
            "tool `{tool}` returned an output that does not match its output schema: \
             {error} at `{at}`"
        ))
        .with_kind(FailureKind::Internal)
        .with_code("output_schema_mismatch")
        .with_data(json!({
            "pointer": pointer,
            "schema_pointer": keyword,
            "problem": error.to_string(),
        }))
    }

    fn invalid_schema(tool: &str, why: &str) -> ToolFailure {
        ToolFailure::terminal(format!(
            "tool `{tool}` declares an output schema that does not compile: {why}"
        ))
        .with_kind(FailureKind::Internal)
        .with_code("invalid_output_schema")
        .with_data(json!({"problem": why}))
    }
}
