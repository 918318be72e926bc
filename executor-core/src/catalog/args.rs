//! Reading one prompt argument or template variable: MCP sends strings; a parameter of any
//! `Deserialize` type reads the string as itself (`String`), or failing that as JSON (`42`,
//! `true`), so `id: u64` works in `notes://{id}`.

use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use crate::failure::ToolFailure;
use crate::tool::BoxFuture;

/// The argument `name` of `arguments` as a `T`; a missing one is `null` (so an `Option` is
/// `None`), and a missing required one an invalid-arguments failure naming it.
///
/// # Errors
/// The argument is missing and required, or is not a `T`.
pub fn catalog_arg<T: DeserializeOwned>(
    arguments: &Map<String, Value>,
    name: &str,
    required: bool,
) -> Result<T, ToolFailure> {
    let value = arguments.get(name).unwrap_or(&Value::Null);
    if value.is_null() && required {
        return Err(ToolFailure::invalid_arguments(format!(
            "missing required argument `{name}`"
        )));
    }
    if let Ok(parsed) = T::deserialize(value) {
        return Ok(parsed);
    }
    if let Value::String(text) = value
        && let Ok(parsed) = serde_json::from_str::<T>(text)
    {
        return Ok(parsed);
    }
    Err(ToolFailure::invalid_arguments(format!(
        "argument `{name}` has the wrong type: got {value}"
    )))
}

/// What a `#[prompts]` or `#[resources]` value answers for an entry number it does not have
/// (never asked by a [`Catalog`](super::Catalog), which numbers entries from the value's own
/// list).
#[must_use]
pub fn unknown_entry<'a, T: Send + 'a>(index: usize) -> BoxFuture<'a, Result<T, ToolFailure>> {
    Box::pin(std::future::ready(Err(ToolFailure::internal(format!(
        "no catalog entry number {index}"
    )))))
}

/// The completions `complete` returns for `value`, at most MCP's 100.
pub fn completions(values: Vec<String>) -> Vec<String> {
    let mut values = values;
    values.truncate(100);
    values
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn strings_numbers_and_missing_arguments() {
        let args: Map<String, Value> =
            serde_json::from_value(json!({"id": "42", "name": "x"})).unwrap();
        assert_eq!(catalog_arg::<u64>(&args, "id", true).unwrap(), 42);
        assert_eq!(catalog_arg::<String>(&args, "id", true).unwrap(), "42");
        assert_eq!(
            catalog_arg::<Option<String>>(&args, "other", false).unwrap(),
            None
        );
        let missing = catalog_arg::<String>(&args, "other", true).unwrap_err();
        assert_eq!(missing.message(), "missing required argument `other`");
        let wrong = catalog_arg::<u64>(&args, "name", true).unwrap_err();
        assert_eq!(
            wrong.message(),
            "argument `name` has the wrong type: got \"x\""
        );
    }
}
