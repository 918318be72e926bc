//! Decoding arguments from the request JSON with errors a model can act on, in JSON words:
//! ``days: expected an integer from 0 to 4294967295, got "three"``.

use std::fmt::Write as _;

use serde::Deserialize;
use serde::Serialize;
use serde_json::Value;

use crate::failure::ToolFailure;

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
// line, a call per argument the hand-written serde derive does not pay (BENCHMARKS.md §5).
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
            let inner = e.inner().to_string();
            let segments: Vec<_> = e.path().iter().collect();
            let at = value_at(value, &segments);
            // An unknown property's path ends with the property, which the message names.
            let shown = if inner.starts_with("unknown field") {
                segments.split_last().map_or(&[][..], |(_, parent)| parent)
            } else {
                &segments[..]
            };
            format!("{}: {}", location(name, shown), reword(&inner, at))
        }
    };
    ToolFailure::invalid_arguments(message)
}

/// `location.tags[1]`: the argument's name, then the path inside it.
fn location(name: &str, segments: &[&serde_path_to_error::Segment]) -> String {
    use serde_path_to_error::Segment;
    let mut out = name.to_owned();
    for segment in segments {
        match segment {
            Segment::Seq { index } => {
                let _ = write!(out, "[{index}]");
            }
            Segment::Map { key } => {
                let _ = write!(out, ".{key}");
            }
            Segment::Enum { variant } => {
                let _ = write!(out, ".{variant}");
            }
            Segment::Unknown => out.push_str(".?"),
        }
    }
    out
}

/// The value the error is about, found by the path serde reported.
fn value_at<'v>(root: &'v Value, segments: &[&serde_path_to_error::Segment]) -> Option<&'v Value> {
    use serde_path_to_error::Segment;
    segments
        .iter()
        .try_fold(root, |value, segment| match segment {
            Segment::Seq { index } => value.get(index),
            Segment::Map { key } => value.get(key.as_str()),
            Segment::Enum { variant } => value.get(variant.as_str()),
            Segment::Unknown => None,
        })
}

/// serde says ``invalid type: string "three", expected u32``; a model reads
/// ``expected an integer from 0 to 4294967295, got "three"`` better: JSON words, and the
/// value as JSON.
fn reword(serde_message: &str, at: Option<&Value>) -> String {
    for prefix in ["invalid type: ", "invalid value: "] {
        if let Some(rest) = serde_message.strip_prefix(prefix)
            && let Some((got, expected)) = rest.rsplit_once(", expected ")
        {
            let got = at.map_or_else(|| got.to_owned(), describe);
            return format!(
                "expected {}, got {got}",
                words(expected).unwrap_or(expected)
            );
        }
    }
    if let Some(rest) = serde_message.strip_prefix("invalid length ")
        && let Some((length, expected)) = rest.split_once(", expected ")
    {
        let expected = words(expected).map_or_else(|| expected.to_owned(), str::to_owned);
        return format!("expected {expected}, got an array of {length} items");
    }
    if let Some(field) = serde_message
        .strip_prefix("missing field `")
        .and_then(|rest| rest.strip_suffix('`'))
    {
        return format!("missing required property {}", quoted(field));
    }
    for (prefix, what) in [
        ("unknown field `", "property"),
        ("unknown variant `", "value"),
    ] {
        if let Some(rest) = serde_message.strip_prefix(prefix)
            && let Some((got, expected)) = rest.split_once("`, ")
        {
            return format!("unknown {what} {}; {}", quoted(got), requote(expected));
        }
    }
    requote(serde_message)
}

/// A name as JSON writes it: `"city"`.
fn quoted(name: &str) -> String {
    Value::from(name).to_string()
}

/// serde's `` `a`, `b` `` as JSON strings: `"a", "b"`.
fn requote(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut parts = text.split('`');
    if let Some(first) = parts.next() {
        out.push_str(first);
    }
    for (i, part) in parts.enumerate() {
        if i % 2 == 0 {
            out.push_str(&quoted(part));
        } else {
            out.push_str(part);
        }
    }
    out
}

/// What a type (as serde's `expected …` or as a parameter's Rust type) reads as in JSON words,
/// with the range of integers whose range is not obvious.
fn words(expected: &str) -> Option<&'static str> {
    Some(match expected {
        "a string" | "a borrowed string" | "&str" | "String" | "Cow<str>" | "str" => "a string",
        "a character" | "char" => "a string of one character",
        "a boolean" | "bool" => "true or false",
        "i8" => "an integer from -128 to 127",
        "i16" => "an integer from -32768 to 32767",
        "i32" => "an integer from -2147483648 to 2147483647",
        "i64" | "isize" | "i128" => "an integer",
        "u8" => "an integer from 0 to 255",
        "u16" => "an integer from 0 to 65535",
        "u32" => "an integer from 0 to 4294967295",
        "u64" | "usize" => "an integer from 0 to 18446744073709551615",
        "u128" => "an integer from 0",
        "f32" | "f64" | "a number" => "a number",
        "a sequence" => "an array",
        "a map" => "an object",
        "unit" | "()" => "null",
        "string or map" => "a string or an object",
        _ if expected.starts_with("struct ") => "an object",
        _ if expected.starts_with("tuple struct ") || expected.starts_with("a tuple ") => {
            "an array"
        }
        _ if expected.starts_with("Vec<") || expected.starts_with("&[") => "an array",
        _ if expected.starts_with("HashMap<") || expected.starts_with("BTreeMap<") => "an object",
        _ => return None,
    })
}

/// The arguments object's values for the parameters `names`, in order: one walk over the
/// object, each key matched against the names (a key that is none of them is an error). `null`
/// (no arguments) reads as `{}`.
///
/// # Errors
/// An invalid-arguments failure when `params` is neither an object nor `null`, or has a key
/// the tool does not take.
// Always inlined, as `decode`: `names` is a constant at every call site, so the compiler sees
// the same comparisons the generated `match` on the key used to spell out.
#[allow(clippy::inline_always)]
#[inline(always)]
pub fn arguments<'v, const N: usize>(
    params: &'v Value,
    names: &[&str; N],
) -> Result<[Option<&'v Value>; N], ToolFailure> {
    let mut slots = [None; N];
    match params {
        Value::Object(map) => {
            for (key, value) in map {
                match names.iter().position(|name| *name == key.as_str()) {
                    Some(i) => slots[i] = Some(value),
                    None => return Err(unknown(key, names)),
                }
            }
        }
        Value::Null => {}
        other => return Err(not_an_object(other)),
    }
    Ok(slots)
}

/// A required argument: decoded, or an error naming what was expected (`expected` is the
/// parameter's Rust type, said in JSON words).
///
/// # Errors
/// An invalid-arguments failure when the argument is absent or does not decode.
#[allow(clippy::inline_always)] // as `decode`: once per parameter in every generated tool
#[inline(always)]
pub fn required<'de, T: Deserialize<'de>>(
    value: Option<&'de Value>,
    name: &str,
    expected: &str,
) -> Result<T, ToolFailure> {
    match value {
        Some(value) => decode(value, name),
        None => Err(missing(name, expected)),
    }
}

/// An optional argument (`Option<T>` or `#[arg(default)]`): decoded, or `T::default()`.
///
/// # Errors
/// An invalid-arguments failure when the argument is present and does not decode.
#[allow(clippy::inline_always)] // as `decode`: once per parameter in every generated tool
#[inline(always)]
pub fn or_default<'de, T: Deserialize<'de> + Default>(
    value: Option<&'de Value>,
    name: &str,
) -> Result<T, ToolFailure> {
    match value {
        Some(value) => decode(value, name),
        None => Ok(T::default()),
    }
}

/// A required parameter is absent. `expected` is the parameter's Rust type, said in JSON words
/// when it is one the runtime knows.
#[cold]
#[must_use]
pub fn missing(name: &str, expected: &str) -> ToolFailure {
    let message = match words(expected) {
        Some(words) => format!("{name}: missing required argument; expected {words}"),
        None => format!("{name}: missing required argument"),
    };
    ToolFailure::invalid_arguments(message)
}

/// An argument the tool does not take.
#[cold]
#[must_use]
pub fn unknown(name: &str, known: &[&str]) -> ToolFailure {
    let known = if known.is_empty() {
        "this tool takes no arguments".to_owned()
    } else {
        let list: Vec<String> = known.iter().map(|k| quoted(k)).collect();
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

/// How a JSON value reads in an error message: as JSON (`"three"`, `5`, `true`, `null`), or
/// `an array` / `an object`; a long string is cut after 60 characters.
#[must_use]
pub fn describe(value: &Value) -> String {
    match value {
        Value::Array(_) => "an array".to_owned(),
        Value::Object(_) => "an object".to_owned(),
        Value::String(s) if s.chars().count() > 60 => {
            let head: String = s.chars().take(60).collect();
            let cut = quoted(&head);
            format!(
                "{}…\" ({} characters)",
                &cut[..cut.len() - 1],
                s.chars().count()
            )
        }
        scalar => scalar.to_string(),
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
        assert_eq!(
            err.message(),
            "days: expected an integer from 0 to 4294967295, got \"three\""
        );
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
            "location.tags[1]: expected an integer from 0 to 255, got \"x\""
        );
    }

    #[test]
    fn strings_borrow_from_the_request() {
        let v = json!("Paris");
        let s: &str = decode(&v, "city").unwrap();
        assert!(std::ptr::eq(s.as_ptr(), v.as_str().unwrap().as_ptr()));
    }

    #[test]
    fn integers_say_their_range_in_json_words() {
        let err = decode::<u32>(&json!(-1), "limit").unwrap_err();
        assert_eq!(
            err.message(),
            "limit: expected an integer from 0 to 4294967295, got -1"
        );
        let err = decode::<i64>(&json!(1.5), "n").unwrap_err();
        assert_eq!(err.message(), "n: expected an integer, got 1.5");
        let err = decode::<u8>(&json!(true), "level").unwrap_err();
        assert_eq!(
            err.message(),
            "level: expected an integer from 0 to 255, got true"
        );
    }

    #[test]
    fn strings_and_values_are_json() {
        let err = decode::<&str>(&json!(5), "city").unwrap_err();
        assert_eq!(err.message(), "city: expected a string, got 5");
        let err = decode::<String>(&json!(null), "city").unwrap_err();
        assert_eq!(err.message(), "city: expected a string, got null");
        let err = decode::<Vec<String>>(&json!({"a": 1}), "tags").unwrap_err();
        assert_eq!(err.message(), "tags: expected an array, got an object");
        let err = decode::<bool>(&json!("yes"), "loud").unwrap_err();
        assert_eq!(err.message(), "loud: expected true or false, got \"yes\"");
    }

    #[test]
    fn objects_and_enums_name_properties_and_values_in_json_quotes() {
        #[derive(Deserialize, Debug)]
        #[allow(dead_code)] // only decoded
        #[serde(deny_unknown_fields)]
        struct Loc {
            city: String,
        }
        #[derive(Deserialize, Debug)]
        #[serde(rename_all = "lowercase")]
        enum Unit {
            Celsius,
            Fahrenheit,
        }
        let err = decode::<Loc>(&json!({}), "location").unwrap_err();
        assert_eq!(
            err.message(),
            "location: missing required property \"city\""
        );
        let err = decode::<Loc>(&json!({"city": "Paris", "zip": 1}), "location").unwrap_err();
        assert_eq!(
            err.message(),
            "location: unknown property \"zip\"; expected \"city\""
        );
        let err = decode::<Unit>(&json!("kelvin"), "unit").unwrap_err();
        assert_eq!(
            err.message(),
            "unit: unknown value \"kelvin\"; expected \"celsius\" or \"fahrenheit\""
        );
        let err = decode::<Unit>(&json!(3), "unit").unwrap_err();
        assert_eq!(err.message(), "unit: expected a string or an object, got 3");
        let err = decode::<(u8, u8)>(&json!([1]), "pair").unwrap_err();
        assert_eq!(
            err.message(),
            "pair: expected an array, got an array of 1 items"
        );
    }

    #[test]
    fn missing_and_unknown_arguments() {
        assert_eq!(
            missing("city", "&str").message(),
            "city: missing required argument; expected a string"
        );
        assert_eq!(
            missing("days", "u32").message(),
            "days: missing required argument; expected an integer from 0 to 4294967295"
        );
        assert_eq!(
            missing("unit", "Unit").message(),
            "unit: missing required argument"
        );
        assert_eq!(
            unknown("c", &["a", "b"]).message(),
            "c: unknown argument; expected one of \"a\", \"b\""
        );
        let params = json!({"a": 1, "x": 2});
        let err = arguments(&params, &["a"]).unwrap_err();
        assert_eq!(err.message(), "x: unknown argument; expected one of \"a\"");
    }

    #[test]
    fn long_strings_are_cut() {
        let long = "x".repeat(100);
        let err = decode::<u8>(&json!(long), "n").unwrap_err();
        assert_eq!(
            err.message(),
            format!(
                "n: expected an integer from 0 to 255, got \"{}…\" (100 characters)",
                "x".repeat(60)
            )
        );
    }
}
