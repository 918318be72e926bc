//! What an agent answers, as a call's stream chunks, output or failure.

use std::time::Duration;

use a2a_protocol_client::ClientError;
use a2a_protocol_types::events::StreamResponse;
use a2a_protocol_types::failure::class_of;
use a2a_protocol_types::message::{Message, Part, PartContent};
use a2a_protocol_types::task::{Task, TaskState, TaskStatus};

use serde_json::Value;

use a2a_protocol_types::approval::ApprovalRequest;

use super::catalog::Input;
use crate::agent::ask::question_of;
use crate::agent::{EXACT_JSON_MEDIA_TYPE, OUTPUT_ARTIFACT, RESULT_ARTIFACT};
use crate::elicit::Question;
use crate::failure::transport::{A2aFailureClass, A2aOutcome, A2aTerminal, from_a2a};
use crate::failure::{FailureKind, ToolFailure};
use crate::tool::{ToolContext, ToolExecution};

/// The end of a call: its output or its failure.
pub(super) type Outcome = Result<ToolExecution, ToolFailure>;

/// Folds one task's events into the call's stream chunks and, at its end, its outcome.
pub(super) struct Fold<'a> {
    tool: &'a str,
    input: Input,
    ctx: &'a ToolContext,
    /// The task's id, once the agent named it (what a cancel needs).
    pub(super) task_id: Option<String>,
    /// The task's context, once the agent named it (what a continuation needs).
    context_id: Option<String>,
    /// A question the agent parked the task on, which the caller can be asked: the call
    /// answers it with a continuation instead of ending.
    pub(super) parked: Option<Parked>,
    /// The `result` artifact of one of our agents.
    result: Option<Value>,
    /// Every other artifact part, in order (a plain agent's answer).
    parts: Vec<Part>,
}

impl<'a> Fold<'a> {
    pub(super) fn new(tool: &'a str, input: Input, ctx: &'a ToolContext) -> Self {
        Self {
            tool,
            input,
            ctx,
            task_id: None,
            context_id: None,
            parked: None,
            result: None,
            parts: Vec::new(),
        }
    }

    /// Takes one event; `Some` when it ends the call.
    pub(super) async fn event(&mut self, event: StreamResponse) -> Option<Outcome> {
        match event {
            StreamResponse::Task(task) => self.task(task).await,
            StreamResponse::Message(message) => Some(Ok(answer(&message))),
            StreamResponse::StatusUpdate(update) => {
                self.task_id = Some(update.task_id.0);
                self.context_id = Some(update.context_id.0);
                self.status(update.status, update.metadata.as_ref()).await
            }
            StreamResponse::ArtifactUpdate(update) => {
                self.task_id = Some(update.task_id.0);
                let artifact = update.artifact;
                if self.input == Input::Data && artifact.id.0 == RESULT_ARTIFACT {
                    self.result = Some(message_value(&artifact.parts));
                } else {
                    self.chunks(&artifact.parts).await;
                    if artifact.id.0 != OUTPUT_ARTIFACT || self.input == Input::Text {
                        self.parts.extend(artifact.parts);
                    }
                }
                None
            }
            // `StreamResponse` is non-exhaustive: an event this build does not know ends nothing.
            _ => None,
        }
    }

    /// A whole task (a blocking send's answer, or a stream's first event); `Some` when its
    /// state ends the call.
    pub(super) async fn task(&mut self, task: Task) -> Option<Outcome> {
        self.task_id = Some(task.id.0);
        self.context_id = Some(task.context_id.0);
        for artifact in task.artifacts.unwrap_or_default() {
            if self.input == Input::Data && artifact.id.0 == RESULT_ARTIFACT {
                self.result = Some(message_value(&artifact.parts));
            } else if self.input == Input::Text || artifact.id.0 != OUTPUT_ARTIFACT {
                self.parts.extend(artifact.parts);
            }
        }
        self.status(task.status, task.metadata.as_ref()).await
    }

    async fn status(&mut self, status: TaskStatus, metadata: Option<&Value>) -> Option<Outcome> {
        match status.state {
            TaskState::Completed => Some(Ok(self.completed(status.message.as_ref()))),
            TaskState::Failed | TaskState::Rejected | TaskState::Canceled => {
                Some(Err(self.failure(&status, metadata)))
            }
            TaskState::InputRequired | TaskState::AuthRequired => {
                // A question our caller can be asked: the transport relays it.
                if status.state == TaskState::InputRequired
                    && self.ctx.can_elicit()
                    && let Some(message) = &status.message
                    && let Some((question, approval)) = question_of(message)
                    && let (Some(task_id), Some(context_id)) = (&self.task_id, &self.context_id)
                {
                    self.parked = Some(Parked {
                        question,
                        approval,
                        task_id: task_id.clone(),
                        context_id: context_id.clone(),
                    });
                }
                let asks = status.message.as_ref().map(texts).unwrap_or_default();
                let failure = ToolFailure::terminal(format!(
                    "tool `{}`: the agent stopped at `{}` (a tool call cannot answer it): {asks}",
                    self.tool, status.state
                ))
                .with_code("a2a_interrupted");
                Some(Err(failure))
            }
            _ => {
                self.working(status.message.as_ref(), metadata).await;
                None
            }
        }
    }

    /// A `working` update: progress when it carries a fraction, else its text.
    async fn working(&self, message: Option<&Message>, metadata: Option<&Value>) {
        let text = message.map(texts).filter(|t| !t.is_empty());
        match metadata
            .and_then(|m| m.get("progress"))
            .and_then(Value::as_f64)
        {
            Some(fraction) => self.ctx.progress(fraction, text).await,
            None => {
                if let Some(text) = text {
                    self.ctx.text(text).await;
                }
            }
        }
    }

    /// Artifact parts as stream chunks: text as text, the rest as data.
    async fn chunks(&self, parts: &[Part]) {
        for part in parts {
            match &part.content {
                PartContent::Text(text) => self.ctx.text(text.clone()).await,
                _ => {
                    // A `Value` always serializes.
                    let _ = self.ctx.emit(&part_value(part)).await;
                }
            }
        }
    }

    fn completed(&mut self, message: Option<&Message>) -> ToolExecution {
        if let Some(result) = self.result.take() {
            return output(result);
        }
        if !self.parts.is_empty() {
            return output(message_value(&self.parts));
        }
        output(message.map_or(Value::Null, |m| message_value(&m.parts)))
    }

    /// A failed, rejected or canceled task, through the failure table: the class, code and
    /// data our agents write on the status message (or on the event), defaults for a peer
    /// that wrote none.
    fn failure(&self, status: &TaskStatus, event_metadata: Option<&Value>) -> ToolFailure {
        let note = status.message.as_ref();
        let detail = |key: &str| {
            note.and_then(|m| m.metadata.as_ref())
                .and_then(|m| m.get(key))
                .or_else(|| event_metadata.and_then(|m| m.get(key)))
                .cloned()
        };
        let class = note
            .and_then(class_of)
            .and_then(|c| A2aFailureClass::from_wire(c.as_str()));
        let terminal = match status.state {
            TaskState::Canceled => A2aTerminal::Canceled,
            TaskState::Rejected => {
                A2aTerminal::Failed(class.unwrap_or(A2aFailureClass::InvalidRequest))
            }
            _ => A2aTerminal::Failed(class.unwrap_or(A2aFailureClass::Transient)),
        };
        let message = note
            .map(texts)
            .filter(|t| !t.is_empty())
            .unwrap_or_else(|| {
                format!(
                    "tool `{}`: the agent ended the task `{}`",
                    self.tool, status.state
                )
            });
        let code = detail("code")
            .and_then(|c| c.as_str().map(str::to_owned))
            .unwrap_or_else(|| "a2a_task_failed".to_owned());
        let data = detail("data");
        let failure = from_a2a(
            self.tool,
            A2aOutcome {
                terminal,
                message,
                code,
                data,
            },
        );
        // The retry hint rides beside the code (`Emitter::fail_with`); a double from a
        // protobuf peer counts when it is a whole number of milliseconds.
        match detail("retry_after_ms").and_then(|ms| whole_ms(&ms)) {
            Some(ms) => failure.with_retry_after(Duration::from_millis(ms)),
            None => failure,
        }
    }
}

/// A task parked on a question: what the caller is asked and where the answer goes.
pub(super) struct Parked {
    pub(super) question: Question,
    pub(super) approval: Option<ApprovalRequest>,
    pub(super) task_id: String,
    pub(super) context_id: String,
}

/// An agent's direct answer (a message, no task).
pub(super) fn answer(message: &Message) -> ToolExecution {
    output(message_value(&message.parts))
}

fn output(value: Value) -> ToolExecution {
    ToolExecution::output_only(value)
}

fn whole_ms(value: &Value) -> Option<u64> {
    value.as_u64().or_else(|| {
        let ms = value.as_f64()?;
        // Bounded and whole: the cast is exact.
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        (ms.fract() == 0.0 && (0.0..=9.0e15).contains(&ms)).then_some(ms as u64)
    })
}

fn texts(message: &Message) -> String {
    message.texts().collect::<Vec<_>>().join("\n")
}

/// Parts as one value: a lone data part is its data, text parts their text (joined by
/// newlines), any other mix the array of the parts' values.
fn message_value(parts: &[Part]) -> Value {
    match parts {
        [] => Value::Null,
        [one] => part_value(one),
        _ if parts
            .iter()
            .all(|p| matches!(p.content, PartContent::Text(_))) =>
        {
            let texts: Vec<&str> = parts.iter().filter_map(Part::text_content).collect();
            Value::String(texts.join("\n"))
        }
        _ => Value::Array(parts.iter().map(part_value).collect()),
    }
}

/// A data part's data as the peer sent it, a text part of our exact-JSON media type as the
/// value it holds (a result with integers beyond ±2^53), or a text, URL or raw part's string.
fn part_value(part: &Part) -> Value {
    match &part.content {
        PartContent::Data(data) => data.clone(),
        PartContent::Text(s) if part.media_type.as_deref() == Some(EXACT_JSON_MEDIA_TYPE) => {
            serde_json::from_str(s).unwrap_or_else(|_| Value::String(s.clone()))
        }
        PartContent::Text(s) | PartContent::Url(s) | PartContent::Raw(s) => {
            Value::String(s.clone())
        }
        // `PartContent` is non-exhaustive: a kind this build does not know, as the peer sent it.
        other => serde_json::to_value(other).unwrap_or(Value::Null),
    }
}

/// A client error as a failure: ordinary (a peer's or the network's trouble may pass), never
/// unhandled, with a code saying which trouble.
pub(super) fn client_failure(tool: &str, agent: &str, error: ClientError) -> ToolFailure {
    let (code, kind) = match &error {
        ClientError::Protocol(e) if e.code.as_i32() == -32602 => {
            return ToolFailure::invalid_arguments(format!("tool `{tool}`: {}", e.message));
        }
        ClientError::Protocol(e) => (
            format!("a2a_error_{}", e.code.as_i32()),
            FailureKind::Internal,
        ),
        ClientError::Timeout(_) => ("timeout".to_owned(), FailureKind::Timeout),
        ClientError::Http(_)
        | ClientError::HttpClient(_)
        | ClientError::Transport(_)
        | ClientError::UnexpectedStatus { .. }
        | ClientError::IncompleteStream { .. } => {
            ("a2a_transport".to_owned(), FailureKind::Internal)
        }
        _ => ("a2a_protocol".to_owned(), FailureKind::Internal),
    };
    ToolFailure::ordinary(format!("A2A agent `{agent}` during `{tool}`: {error}"))
        .with_kind(kind)
        .with_code(code)
        .with_source(error)
}

/// An answer this client cannot read as the call's end.
pub(super) fn unexpected(tool: &str, agent: &str, what: &str) -> ToolFailure {
    ToolFailure::ordinary(format!("A2A agent `{agent}` answered `{tool}` with {what}"))
        .with_kind(crate::failure::FailureKind::Internal)
        .with_code("a2a_protocol")
}
