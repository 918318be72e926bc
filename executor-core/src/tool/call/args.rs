//! Decoding arguments from the request JSON with errors a model can act on:
//! ``days: expected u32, got string "three"``.

use serde::Deserialize;
use serde::Serialize;
use serde_json::{Map, Value};

use crate::ToolFailure;

/// The arguments object. `null` (no arguments) reads as `{}`.
///
/// # Errors
/// An invalid-arguments failure when `params` is neither an object nor `null`.
#[inline]
pub fn object(params: &Value) -> Result<Option<&Map<String, Value>>, ToolFailure> {
    match params {
        Value::Object(map) => Ok(Some(map)),
        Value::Null => Ok(None),
        other => Err(not_an_object(other)),
    }
}

#[cold]
fn not_an_object(params: &Value) -> ToolFailure {
    ToolFailure::invalid_arguments(format!(
        "arguments: expected an object, got {}",
        describe(params)
    ))
}

/// Decodes parameter `name` from `value`, borrowing strings from the request where `T` can.
///
/// # Errors
/// An invalid-arguments failure naming the JSON path, the expected type and what was sent.
// Always inlined: called once per parameter in every generated tool, and LLVM kept it out of
// line, a call per argument the hand-written serde derive does not pay (BENCHMARKS.md).
#[allow(clippy::inline_always)]
#[inline(always)]
pub fn decode<'de, T: Deserialize<'de>>(value: &'de Value, name: &str) -> Result<T, ToolFailure> {
    match T::deserialize(value) {
        Ok(v) => Ok(v),
        Err(_) => Err(decode_error::<T>(value, name)),
    }
}

/// The cold path: decode again, tracking the path, and word the error for a model.
#[cold]
fn decode_error<'de, T: Deserialize<'de>>(value: &'de Value, name: &str) -> ToolFailure {
    let message = match serde_path_to_error::deserialize::<_, T>(value) {
        Ok(_) => format!("{name}: invalid value"),
        Err(e) => {
            let path = e.path().to_string();
            let location = if path == "." || path.is_empty() {
                name.to_owned()
            } else if path.starts_with('[') {
                format!("{name}{path}")
            } else {
                format!("{name}.{path}")
            };
            format!("{location}: {}", reword(&e.into_inner().to_string()))
        }
    };
    ToolFailure::invalid_arguments(message)
}

/// serde says `invalid type: string "three", expected u32`; a model reads
/// `expected u32, got string "three"` better.
fn reword(serde_message: &str) -> String {
    for prefix in ["invalid type: ", "invalid value: "] {
        if let Some(rest) = serde_message.strip_prefix(prefix)
            && let Some((got, expected)) = rest.rsplit_once(", expected ")
        {
            return format!("expected {expected}, got {got}");
        }
    }
    serde_message.to_owned()
}

/// A required parameter is absent.
#[cold]
#[must_use]
pub fn missing(name: &str, expected: &str) -> ToolFailure {
    ToolFailure::invalid_arguments(format!(
        "{name}: missing required argument (expected {expected})"
    ))
}

/// An argument the tool does not take.
#[cold]
#[must_use]
pub fn unknown(name: &str, known: &[&str]) -> ToolFailure {
    let known = if known.is_empty() {
        "this tool takes no arguments".to_owned()
    } else {
        let list: Vec<String> = known.iter().map(|k| format!("`{k}`")).collect();
        format!("expected one of {}", list.join(", "))
    };
    ToolFailure::invalid_arguments(format!("{name}: unknown argument; {known}"))
}

/// Encodes a tool's result.
///
/// # Errors
/// An internal failure when the value does not serialize (a map with non-string keys, a
/// `Serialize` impl that fails).
#[allow(clippy::inline_always)] // as `decode`: once per call in every generated tool
#[inline(always)]
pub fn encode<T: Serialize + ?Sized>(value: &T) -> Result<Value, ToolFailure> {
    serde_json::to_value(value)
        .map_err(|e| ToolFailure::internal(format!("tool result did not serialize: {e}")))
}

/// How a JSON value reads in an error message: `string "three"`, `integer 5`, `an array`.
#[must_use]
pub fn describe(value: &Value) -> String {
    match value {
        Value::Null => "null".to_owned(),
        Value::Bool(b) => format!("boolean `{b}`"),
        Value::Number(n) if n.is_f64() => format!("floating point `{n}`"),
        Value::Number(n) => format!("integer `{n}`"),
        Value::String(s) => format!("string {s:?}"),
        Value::Array(_) => "an array".to_owned(),
        Value::Object(_) => "an object".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn wrong_type_names_path_expected_and_got() {
        let v = json!("three");
        let err = decode::<u32>(&v, "days").unwrap_err();
        assert_eq!(err.message(), "days: expected u32, got string \"three\"");
        assert_eq!(err.code(), "invalid_arguments");
    }

    #[test]
    fn nested_path_is_named() {
        #[derive(Deserialize, Debug)]
        #[allow(dead_code)] // only decoded
        struct Loc {
            city: String,
            tags: Vec<u8>,
        }
        let v = json!({"city": "Paris", "tags": [1, "x"]});
        let err = decode::<Loc>(&v, "location").unwrap_err();
        assert_eq!(
            err.message(),
            "location.tags[1]: expected u8, got string \"x\""
        );
    }

    #[test]
    fn strings_borrow_from_the_request() {
        let v = json!("Paris");
        let s: &str = decode(&v, "city").unwrap();
        assert!(std::ptr::eq(s.as_ptr(), v.as_str().unwrap().as_ptr()));
    }
}
