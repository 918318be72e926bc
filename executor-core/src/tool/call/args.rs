//! Decoding arguments from the request JSON with errors a model can act on, in JSON words:
//! ``days: expected an integer from 0 to 4294967295, got "three"``.
//!
//! Each argument is decoded straight from the request. Only when that fails does the decoder
//! read it again as the tool's input schema allows ([`schema::lenient`](crate::schema::lenient):
//! a `null` for an optional property that does not take `null` is absent, `2.0` is an integer
//! where the schema says integer), and only then are the other arguments' failures gathered
//! into one ([`failures`], at most [`MAX_REPORTED`] lines). A call whose arguments decode the
//! first time pays next to nothing for it (4 instructions in BENCHMARKS.md §5).

use std::fmt::Write as _;
use std::sync::Arc;

use serde::Deserialize;
use serde::Serialize;
use serde_json::Value;

use crate::failure::ToolFailure;
use crate::schema::lenient::{Lenient, Node};
use crate::tool::execution::SpecList;
use crate::tool::spec::ToolSpec;

/// How many arguments' failures one invalid-arguments failure lists; any more are counted.
pub const MAX_REPORTED: usize = 8;

/// What a tool's argument types must be: every `serde::Deserialize` type is one. It exists for
/// its compile error, as [`ToolSchema`](crate::schema::ToolSchema) does.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be decoded from JSON, which a tool needs for its arguments",
    label = "derive `serde::Deserialize` for this type",
    note = "add `#[derive(serde::Deserialize)]` next to its `JsonSchema` derive; for a type from another crate, wrap it in a type of yours"
)]
pub trait ToolArgument<'de>: Deserialize<'de> {}

impl<'de, T: Deserialize<'de>> ToolArgument<'de> for T {}

/// What a tool's result type must be: every `serde::Serialize` type is one. It exists for its
/// compile error, as [`ToolSchema`](crate::schema::ToolSchema) does.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be encoded as JSON, which a tool needs for its result",
    label = "derive `serde::Serialize` for this type",
    note = "add `#[derive(serde::Serialize)]` next to its `JsonSchema` derive; for a type from another crate, wrap it in a type of yours"
)]
pub trait ToolOutput: Serialize {}

impl<T: Serialize + ?Sized> ToolOutput for T {}

/// What a `#[tool]`'s error type must be: anything that converts into a [`ToolFailure`]. It
/// exists for its compile error, which says to derive `ToolFailure` where rustc would list the
/// library's `From` impls.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a tool failure, which the error type of a `#[tool]` must be",
    label = "derive `ToolFailure` for this error type",
    note = "add `#[derive(ToolFailure)]` (beside thiserror's `#[derive(Error)]`) to `{Self}`, or return `Result<_, ToolFailure>`"
)]
pub trait IntoToolFailure {
    /// The failure this error is.
    fn into_tool_failure(self) -> ToolFailure;
}

// Not recommended, so an error without a conversion is reported as `IntoToolFailure` (with the
// message above) rather than as the `From` bound underneath (with the library's impls).
#[diagnostic::do_not_recommend]
impl<E: Into<ToolFailure>> IntoToolFailure for E {
    #[inline]
    fn into_tool_failure(self) -> ToolFailure {
        self.into()
    }
}

/// Where the decoder finds the tool's input schema, which it reads only after an argument
/// failed to decode: a `#[tool]`'s `Tool::spec`, or [`Listed`] for a `#[tools]` method.
pub trait InputOf {
    /// The tool's spec, when known.
    fn spec(&self) -> Option<Arc<ToolSpec>>;
}

impl<F: Fn() -> &'static Arc<ToolSpec>> InputOf for F {
    fn spec(&self) -> Option<Arc<ToolSpec>> {
        Some(Arc::clone(self()))
    }
}

/// A `#[tools]` method's spec: the one named `.1` in the list `.0` returns.
pub struct Listed<F>(pub F, pub &'static str);

impl<F: Fn() -> SpecList> InputOf for Listed<F> {
    fn spec(&self) -> Option<Arc<ToolSpec>> {
        (self.0)().iter().find(|spec| spec.name == self.1).cloned()
    }
}

/// No schema: nothing is read more leniently than serde reads it.
#[cfg(test)]
pub struct NoSchema;

#[cfg(test)]
impl InputOf for NoSchema {
    fn spec(&self) -> Option<Arc<ToolSpec>> {
        None
    }
}

#[cold]
fn not_an_object(params: &Value) -> ToolFailure {
    ToolFailure::invalid_arguments(format!(
        "arguments: expected an object, got {}",
        describe(params)
    ))
}

/// Decodes parameter `name` from `value`, borrowing strings from the request where `T` can;
/// when that fails, reads it again as `tool`'s input schema allows.
///
/// # Errors
/// An invalid-arguments failure naming the JSON path, the expected type and what was sent.
// Always inlined: called once per parameter in every generated tool, and LLVM kept it out of
// line, a call per argument the hand-written serde derive does not pay (BENCHMARKS.md §5).
// `tool` is a fn item or a closure over a reference, so it goes by value like a reference.
#[allow(clippy::inline_always, clippy::needless_pass_by_value)]
#[inline(always)]
pub fn decode<'de, T: ToolArgument<'de>>(
    value: &'de Value,
    name: &str,
    tool: impl InputOf,
) -> Result<T, ToolFailure> {
    match T::deserialize(value) {
        Ok(v) => Ok(v),
        Err(_) => decode_again(value, name, &tool),
    }
}

/// The cold path: decode again as the schema allows, tracking the path, and word the error for
/// a model.
#[cold]
fn decode_again<'de, T: Deserialize<'de>>(
    value: &'de Value,
    name: &str,
    tool: &dyn InputOf,
) -> Result<T, ToolFailure> {
    let spec = tool.spec();
    let node = spec
        .as_deref()
        .map_or(Node::NONE, |spec| Node::property(&spec.input_schema, name));
    match serde_path_to_error::deserialize::<_, T>(Lenient::new(value, node)) {
        Ok(v) => Ok(v),
        Err(e) => Err(decode_error(value, name, &e)),
    }
}

/// The failure for `serde_path_to_error`'s error `e` about argument `name`, sent as `value`.
fn decode_error(
    value: &Value,
    name: &str,
    e: &serde_path_to_error::Error<serde_json::Error>,
) -> ToolFailure {
    let inner = e.inner().to_string();
    let segments: Vec<_> = e.path().iter().collect();
    let at = value_at(value, &segments);
    // An unknown property's path ends with the property, which the message names.
    let shown = if inner.starts_with("unknown field") {
        segments.split_last().map_or(&[][..], |(_, parent)| parent)
    } else {
        &segments[..]
    };
    ToolFailure::invalid_arguments(format!("{}: {}", location(name, shown), reword(&inner, at)))
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
// Forced only where it pays: a debug build compiles a copy into every tool (BENCHMARKS.md §9).
#[cfg_attr(debug_assertions, inline)]
#[cfg_attr(not(debug_assertions), inline(always))]
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

/// The first try at a required argument: decoded straight from the request, or `None` (absent
/// or not decoding as sent), after which generated code decodes every argument again with
/// [`required`], [`or_default`] and [`or_else`] and reports each failure.
#[allow(clippy::inline_always)]
// as `decode`: once per parameter in every generated tool
// Forced only where it pays: a debug build compiles a copy into every tool (BENCHMARKS.md §9).
#[cfg_attr(debug_assertions, inline)]
#[cfg_attr(not(debug_assertions), inline(always))]
#[must_use]
pub fn first<'de, T: ToolArgument<'de>>(value: Option<&'de Value>) -> Option<T> {
    match value {
        Some(value) => T::deserialize(value).ok(),
        None => None,
    }
}

/// The first try at an optional argument (`Option<T>`, `#[arg(default)]`): `T::default()` when
/// absent; see [`first`].
#[allow(clippy::inline_always)]
// as `decode`: once per parameter in every generated tool
// Forced only where it pays: a debug build compiles a copy into every tool (BENCHMARKS.md §9).
#[cfg_attr(debug_assertions, inline)]
#[cfg_attr(not(debug_assertions), inline(always))]
#[must_use]
pub fn first_or_default<'de, T: ToolArgument<'de> + Default>(
    value: Option<&'de Value>,
) -> Option<T> {
    first_or_else(value, T::default)
}

/// The first try at an argument with a default (`#[arg(default = …)]`): `default()` when
/// absent; see [`first`].
#[allow(clippy::inline_always)]
// as `decode`: once per parameter in every generated tool
// Forced only where it pays: a debug build compiles a copy into every tool (BENCHMARKS.md §9).
#[cfg_attr(debug_assertions, inline)]
#[cfg_attr(not(debug_assertions), inline(always))]
pub fn first_or_else<'de, T: ToolArgument<'de>>(
    value: Option<&'de Value>,
    default: impl FnOnce() -> T,
) -> Option<T> {
    match value {
        Some(value) => T::deserialize(value).ok(),
        None => Some(default()),
    }
}

/// A required argument: decoded, or an error naming what was expected (`expected` is the
/// parameter's Rust type, said in JSON words). A `null` is not absent here: the property is
/// required.
///
/// # Errors
/// An invalid-arguments failure when the argument is absent or does not decode.
// Only the second pass (`again`) calls it, so it is neither inlined nor generic over the tool:
// one copy per argument type, shared by every tool of a crate (what a debug build compiles per
// tool: BENCHMARKS.md §9).
pub fn required<'de, T: ToolArgument<'de>>(
    value: Option<&'de Value>,
    name: &str,
    expected: &str,
    tool: &dyn InputOf,
) -> Result<T, ToolFailure> {
    match value {
        Some(value) => match T::deserialize(value) {
            Ok(v) => Ok(v),
            Err(_) => decode_again(value, name, tool),
        },
        None => Err(missing(name, expected)),
    }
}

/// An optional argument (`Option<T>` or `#[arg(default)]`): decoded, or `T::default()` when
/// absent or, for a `T` that does not take `null`, `null`.
///
/// # Errors
/// An invalid-arguments failure when the argument is present and does not decode.
// Second pass only, as `required`.
pub fn or_default<'de, T: ToolArgument<'de> + Default>(
    value: Option<&'de Value>,
    name: &str,
    tool: &dyn InputOf,
) -> Result<T, ToolFailure> {
    or_else(value, name, tool, T::default)
}

/// An argument with a default (`#[arg(default = …)]`): decoded, or `default()` when absent or,
/// for a `T` that does not take `null`, `null`.
///
/// # Errors
/// An invalid-arguments failure when the argument is present and does not decode.
// Second pass only, as `required`.
pub fn or_else<'de, T: ToolArgument<'de>>(
    value: Option<&'de Value>,
    name: &str,
    tool: &dyn InputOf,
    default: impl FnOnce() -> T,
) -> Result<T, ToolFailure> {
    match value {
        Some(value) => match T::deserialize(value) {
            Ok(v) => Ok(v),
            Err(_) => optional_again(value, name, tool, default),
        },
        None => Ok(default()),
    }
}

/// The cold path of an optional argument: a `null` its type refused means absent; anything
/// else is decoded again as the schema allows.
#[cold]
fn optional_again<'de, T: Deserialize<'de>>(
    value: &'de Value,
    name: &str,
    tool: &dyn InputOf,
    default: impl FnOnce() -> T,
) -> Result<T, ToolFailure> {
    if value.is_null() {
        return Ok(default());
    }
    decode_again(value, name, tool)
}

/// Runs generated code's second pass over a call's arguments (see [`first`]) out of line, so
/// its code stays out of the function that runs the first pass (BENCHMARKS.md §5).
#[cold]
#[inline(never)]
pub fn again<R>(pass: impl FnOnce() -> R) -> R {
    pass()
}

/// One invalid-arguments failure for the arguments of a call that failed, in parameter order:
/// the first one's message first, each on its own line, at most `MAX_REPORTED` (8) of them and
/// then how many more there were. Generated code calls it only once an argument has failed.
#[cold]
#[must_use]
pub fn failures<const N: usize>(failures: [Option<ToolFailure>; N]) -> ToolFailure {
    combined(failures.into_iter().flatten())
}

/// The failures of a call's second pass over its arguments, gathered one argument at a time
/// (not generic over the tool, so a crate of tools compiles one copy per argument type:
/// BENCHMARKS.md §9); [`finish`](Self::finish) words them as [`failures`] does.
#[derive(Default)]
pub struct Failures(Vec<ToolFailure>);

impl Failures {
    /// The argument's value, or `None` with its failure kept.
    pub fn take<T>(&mut self, result: Result<T, ToolFailure>) -> Option<T> {
        match result {
            Ok(value) => Some(value),
            Err(failure) => {
                self.0.push(failure);
                None
            }
        }
    }

    /// One invalid-arguments failure for every failure taken, in order.
    #[cold]
    #[must_use]
    pub fn finish(self) -> ToolFailure {
        combined(self.0.into_iter())
    }
}

fn combined(mut failed: impl Iterator<Item = ToolFailure>) -> ToolFailure {
    let Some(first) = failed.next() else {
        return ToolFailure::invalid_arguments("arguments: invalid");
    };
    let rest: Vec<ToolFailure> = failed.collect();
    if rest.is_empty() {
        return first;
    }
    let mut message = first.message().to_owned();
    for failure in rest.iter().take(MAX_REPORTED - 1) {
        message.push('\n');
        message.push_str(failure.message());
    }
    if let Some(more) = (rest.len() + 1)
        .checked_sub(MAX_REPORTED)
        .filter(|n| *n > 0)
    {
        let _ = write!(message, "\nand {more} more invalid arguments");
    }
    ToolFailure::invalid_arguments(message)
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
#[allow(clippy::inline_always)]
// as `decode`: once per call in every generated tool
// Forced only where it pays: a debug build compiles a copy into every tool (BENCHMARKS.md §9).
#[cfg_attr(debug_assertions, inline)]
#[cfg_attr(not(debug_assertions), inline(always))]
pub fn encode<T: ToolOutput + ?Sized>(value: &T) -> Result<Value, ToolFailure> {
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
        let err = decode::<u32>(&v, "days", NoSchema).unwrap_err();
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
        let err = decode::<Loc>(&v, "location", NoSchema).unwrap_err();
        assert_eq!(
            err.message(),
            "location.tags[1]: expected an integer from 0 to 255, got \"x\""
        );
    }

    #[test]
    fn strings_borrow_from_the_request() {
        let v = json!("Paris");
        let s: &str = decode(&v, "city", NoSchema).unwrap();
        assert!(std::ptr::eq(s.as_ptr(), v.as_str().unwrap().as_ptr()));
    }

    #[test]
    fn integers_say_their_range_in_json_words() {
        let err = decode::<u32>(&json!(-1), "limit", NoSchema).unwrap_err();
        assert_eq!(
            err.message(),
            "limit: expected an integer from 0 to 4294967295, got -1"
        );
        let err = decode::<i64>(&json!(1.5), "n", NoSchema).unwrap_err();
        assert_eq!(err.message(), "n: expected an integer, got 1.5");
        let err = decode::<u8>(&json!(true), "level", NoSchema).unwrap_err();
        assert_eq!(
            err.message(),
            "level: expected an integer from 0 to 255, got true"
        );
    }

    #[test]
    fn strings_and_values_are_json() {
        let err = decode::<&str>(&json!(5), "city", NoSchema).unwrap_err();
        assert_eq!(err.message(), "city: expected a string, got 5");
        let err = decode::<String>(&json!(null), "city", NoSchema).unwrap_err();
        assert_eq!(err.message(), "city: expected a string, got null");
        let err = decode::<Vec<String>>(&json!({"a": 1}), "tags", NoSchema).unwrap_err();
        assert_eq!(err.message(), "tags: expected an array, got an object");
        let err = decode::<bool>(&json!("yes"), "loud", NoSchema).unwrap_err();
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
        let err = decode::<Loc>(&json!({}), "location", NoSchema).unwrap_err();
        assert_eq!(
            err.message(),
            "location: missing required property \"city\""
        );
        let err =
            decode::<Loc>(&json!({"city": "Paris", "zip": 1}), "location", NoSchema).unwrap_err();
        assert_eq!(
            err.message(),
            "location: unknown property \"zip\"; expected \"city\""
        );
        let err = decode::<Unit>(&json!("kelvin"), "unit", NoSchema).unwrap_err();
        assert_eq!(
            err.message(),
            "unit: unknown value \"kelvin\"; expected \"celsius\" or \"fahrenheit\""
        );
        let err = decode::<Unit>(&json!(3), "unit", NoSchema).unwrap_err();
        assert_eq!(err.message(), "unit: expected a string or an object, got 3");
        let err = decode::<(u8, u8)>(&json!([1]), "pair", NoSchema).unwrap_err();
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
    fn failures_list_the_first_first_and_count_past_the_bound() {
        let one = failures([None, Some(missing("b", "u8")), None]);
        assert_eq!(
            one.message(),
            "b: missing required argument; expected an integer from 0 to 255"
        );
        let many: [Option<ToolFailure>; 10] =
            std::array::from_fn(|i| Some(missing(&format!("a{i}"), "bool")));
        let message = failures(many).message().to_owned();
        let lines: Vec<&str> = message.lines().collect();
        assert_eq!(lines.len(), MAX_REPORTED + 1);
        assert_eq!(
            lines[0],
            "a0: missing required argument; expected true or false"
        );
        assert_eq!(
            lines[7],
            "a7: missing required argument; expected true or false"
        );
        assert_eq!(lines[8], "and 2 more invalid arguments");
    }

    #[test]
    fn long_strings_are_cut() {
        let long = "x".repeat(100);
        let err = decode::<u8>(&json!(long), "n", NoSchema).unwrap_err();
        assert_eq!(
            err.message(),
            format!(
                "n: expected an integer from 0 to 255, got \"{}…\" (100 characters)",
                "x".repeat(60)
            )
        );
    }
}
