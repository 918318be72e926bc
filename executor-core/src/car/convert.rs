//! Our types as car-ir's and back: failures, stream chunks and specs.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use crate::failure::transport::{KindPolicy, restore, structured};
use crate::failure::{FailureKind, ToolFailure};
use crate::tool::{ToolSpec, ToolStreamChunk};

/// What opens the details car's messages carry for us: a failure's message (or an `error`
/// chunk's) is followed by `" [executor/failure {json}]"`, one compact JSON object and a
/// closing bracket at the very end. See the [module docs](super) for the keys.
pub const FAILURE_MARKER: &str = " [executor/failure ";

/// Our failure as car's: the classification (and the unhandled flag) in car's own fields, the
/// message followed by the details car has no field for.
///
/// A failure with nothing beyond its message and class (code `tool_error`, kind `tool`, no
/// retry hint, no data) keeps its message as is.
impl From<&ToolFailure> for car_ir::ToolFailure {
    fn from(failure: &ToolFailure) -> Self {
        let message = if has_details(failure) {
            let details = structured(failure);
            with_marker(
                failure.message(),
                details.as_object().unwrap_or(&Map::new()),
            )
        } else {
            failure.message().to_owned()
        };
        if failure.is_unhandled() {
            Self::unhandled(message)
        } else if failure.is_terminal() {
            Self::terminal(message)
        } else {
            Self::ordinary(message)
        }
    }
}

impl From<ToolFailure> for car_ir::ToolFailure {
    fn from(failure: ToolFailure) -> Self {
        Self::from(&failure)
    }
}

/// car's failure as ours, by car's class: terminal, unhandled or ordinary. The details a
/// marker carries (code, kind, retry hint, data) are restored and the marker is removed from
/// the message; the marker never changes the class.
impl From<&car_ir::ToolFailure> for ToolFailure {
    fn from(failure: &car_ir::ToolFailure) -> Self {
        let (message, details) = split_marker(&failure.message);
        let message = message.to_owned();
        let ours = if failure.is_unhandled() {
            Self::unhandled(message)
        } else if failure.is_terminal() {
            Self::terminal(message)
        } else {
            Self::ordinary(message)
        };
        match details {
            Some(details) => restore(ours, &Value::Object(details), KindPolicy::Any),
            None => ours,
        }
    }
}

impl From<car_ir::ToolFailure> for ToolFailure {
    fn from(failure: car_ir::ToolFailure) -> Self {
        Self::from(&failure)
    }
}

fn has_details(failure: &ToolFailure) -> bool {
    failure.code() != "tool_error"
        || failure.kind() != FailureKind::Tool
        || failure.retry_after().is_some()
        || failure.data().is_some()
}

/// `message` followed by the marker holding `details`, keys sorted whatever `serde_json`'s
/// `preserve_order` feature says, so the text is the same in every build.
fn with_marker(message: &str, details: &Map<String, Value>) -> String {
    let sorted: BTreeMap<&String, &Value> = details.iter().collect();
    let json = serde_json::to_string(&sorted).unwrap_or_default();
    format!("{message}{FAILURE_MARKER}{json}]")
}

/// The message before the marker and the marker's details, or the whole text and `None`
/// when it does not end in a well-formed marker. The last marker that parses wins, so a
/// message (or data) that quotes the marker text cannot hide the real one.
fn split_marker(text: &str) -> (&str, Option<Map<String, Value>>) {
    for (at, _) in text.rmatch_indices(FAILURE_MARKER) {
        let json = &text[at + FAILURE_MARKER.len()..];
        let mut values = serde_json::Deserializer::from_str(json).into_iter::<Map<String, Value>>();
        if let Some(Ok(details)) = values.next()
            && &json[values.byte_offset()..] == "]"
        {
            return (&text[..at], Some(details));
        }
    }
    (text, None)
}

/// Our chunk as car's. The `error` chunk's code, class and retry hint, which car's chunk has
/// no field for, follow its message in the marker.
impl From<ToolStreamChunk> for car_ir::ToolStreamChunk {
    fn from(chunk: ToolStreamChunk) -> Self {
        match chunk {
            ToolStreamChunk::Text { text } => Self::Text { text },
            ToolStreamChunk::Data { data } => Self::Data { data },
            ToolStreamChunk::Progress { fraction, message } => Self::Progress { fraction, message },
            ToolStreamChunk::Done { result } => Self::Done { result },
            ToolStreamChunk::Error {
                message,
                code,
                classification,
                retry_after_ms,
            } => {
                let mut details = Map::new();
                if let Some(code) = code {
                    details.insert("code".into(), code.into());
                }
                if let Some(class) = classification {
                    let class = serde_json::to_value(class).unwrap_or_default();
                    details.insert("classification".into(), class);
                }
                if let Some(ms) = retry_after_ms {
                    details.insert("retry_after_ms".into(), ms.into());
                }
                let message = if details.is_empty() {
                    message
                } else {
                    with_marker(&message, &details)
                };
                Self::Error { message }
            }
        }
    }
}

/// car's chunk as ours; an `error` chunk's marker gives back its code, class and retry hint.
impl From<car_ir::ToolStreamChunk> for ToolStreamChunk {
    fn from(chunk: car_ir::ToolStreamChunk) -> Self {
        match chunk {
            car_ir::ToolStreamChunk::Text { text } => Self::Text { text },
            car_ir::ToolStreamChunk::Data { data } => Self::Data { data },
            car_ir::ToolStreamChunk::Progress { fraction, message } => {
                Self::Progress { fraction, message }
            }
            car_ir::ToolStreamChunk::Done { result } => Self::Done { result },
            car_ir::ToolStreamChunk::Error { message } => {
                let (text, details) = split_marker(&message);
                let details = details.unwrap_or_default();
                Self::Error {
                    message: text.to_owned(),
                    code: details
                        .get("code")
                        .and_then(Value::as_str)
                        .map(str::to_owned),
                    classification: details
                        .get("classification")
                        .cloned()
                        .and_then(|class| serde_json::from_value(class).ok()),
                    retry_after_ms: details.get("retry_after_ms").and_then(Value::as_u64),
                }
            }
        }
    }
}

/// Our spec as the schema car's `Runtime` registers: name, description, the input schema as
/// `parameters`, the output schema as `returns`, and `idempotent` when the annotations say
/// the tool is idempotent or read-only (a read-only tool has no effect to repeat). The other
/// hints, the failure codes and the tool's own timeout have no field in car's schema; the
/// timeout still holds inside the call.
impl From<&ToolSpec> for car_ir::ToolSchema {
    fn from(spec: &ToolSpec) -> Self {
        let hints = &spec.annotations;
        Self {
            name: spec.name.clone(),
            source: car_ir::ToolSourceKind::UserDefined,
            description: spec.description.clone(),
            parameters: spec.input_schema.clone(),
            returns: spec.output_schema.clone(),
            idempotent: hints.idempotent == Some(true) || hints.read_only == Some(true),
            cache_ttl_secs: None,
            rate_limit: None,
        }
    }
}
