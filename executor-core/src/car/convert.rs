//! Our types as car-ir's and back: failures, stream chunks and specs.

use serde_json::{Map, Value};

use crate::failure::ToolFailure;
use crate::failure::transport::{for_car, from_car, split_car_marker, with_car_marker};
use crate::tool::{ToolSpec, ToolStreamChunk};

/// Our failure as car's ([`for_car`]): the classification (and the unhandled flag) in car's
/// own fields, the message followed by the details car has no field for.
///
/// A failure with nothing beyond its message and class (code `tool_error`, kind `tool`, no
/// retry hint, no data) keeps its message as is.
impl From<&ToolFailure> for car_ir::ToolFailure {
    fn from(failure: &ToolFailure) -> Self {
        let car = for_car(failure);
        if car.unhandled {
            Self::unhandled(car.message)
        } else if car.terminal {
            Self::terminal(car.message)
        } else {
            Self::ordinary(car.message)
        }
    }
}

impl From<ToolFailure> for car_ir::ToolFailure {
    fn from(failure: ToolFailure) -> Self {
        Self::from(&failure)
    }
}

/// car's failure as ours, by car's class ([`from_car`]): terminal, unhandled or ordinary. The
/// details a marker carries (code, kind, retry hint, data) are restored and the marker is
/// removed from the message; the marker never changes the class.
impl From<&car_ir::ToolFailure> for ToolFailure {
    fn from(failure: &car_ir::ToolFailure) -> Self {
        from_car(
            &failure.message,
            failure.is_terminal(),
            failure.is_unhandled(),
        )
    }
}

impl From<car_ir::ToolFailure> for ToolFailure {
    fn from(failure: car_ir::ToolFailure) -> Self {
        Self::from(&failure)
    }
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
                    with_car_marker(&message, &details)
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
                let (text, details) = split_car_marker(&message);
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
