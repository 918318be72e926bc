//! Questions from a [`ToolAgent`](super::ToolAgent)'s tools over A2A: a question parks the
//! task at `input-required`, the caller's next message on the same task answers it, and the
//! tool runs again from the start with every answer so far (the rule MCP 2026-07-28 follows:
//! ask before side effects).
//!
//! What the re-run needs (the call and the answers) is kept on the parked task's status
//! message, in the task store: any replica that shares the store resumes the call, and the
//! caller cannot edit it (a continuation brings only its own answer).
//!
//! - A form or URL question is a text part and a data part holding the `elicitation/create`
//!   params (`{"mode", "message", "requestedSchema" | "url"}`), tagged with
//!   [`ELICITATION_EXTENSION`]; the answer is a data part holding an MCP `ElicitResult`
//!   (`{"action": "accept" | "decline" | "cancel", "content": {…}}`).
//! - A yes/no approval ([`ToolContext::confirm`](crate::ToolContext::confirm),
//!   `#[tool(confirm)]`) is the server crate's approval extension: an `ApprovalRequest`
//!   `{requestId, summary, digest}` whose digest is [`approval_digest`] of the call, answered
//!   by an `ApprovalDecision {requestId, decision, digest}`; a decision for another request or
//!   another digest is refused.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use a2a_protocol_server::RequestContext;
use a2a_protocol_types::approval::{ApprovalDecision, ApprovalRequest, Decision};
use a2a_protocol_types::message::{Message, Part, PartContent};
use a2a_protocol_types::task::TaskState;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use super::emitter::Emitter;
use crate::elicit::{
    Asked, Asker, ElicitError, Elicitor, Question, Replay, Reply, Run, json_digest, question_key,
};
use crate::schema::dialect::integral_floats_to_integers;
use crate::tool::BoxFuture;

/// The extension that marks a question's data part (its part metadata holds the question's
/// key under this URI) and a status message that carries one (`message.extensions`).
/// [`A2aToolExecutor`](crate::agent::A2aToolExecutor) reads it to relay the question to its own
/// caller.
pub const ELICITATION_EXTENSION: &str = "urn:executor:a2a:elicitation:v1";

/// The status message's metadata key holding what a parked call resumes with.
pub const PENDING_METADATA: &str = "executor/pending";

/// The digest an approval of a call binds: `sha256:` and the hex SHA-256 of the RFC 8785
/// canonical JSON of `{"tool", "arguments", "question"}`, so an approval given for other
/// arguments (or another question) does not match.
#[must_use]
pub fn approval_digest(tool: &str, arguments: &Value, question: &str) -> String {
    json_digest(&json!({ "tool": tool, "arguments": arguments, "question": question }))
}

/// What a parked task resumes: the call, the answers so far and the question asked.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct Pending {
    pub(super) tool: String,
    pub(super) arguments: Value,
    pub(super) attempt: u32,
    pub(super) idempotency_key: String,
    #[serde(default)]
    pub(super) answers: BTreeMap<String, Value>,
    pub(super) asked: String,
    /// The question's `elicitation/create` params.
    pub(super) question: Value,
}

/// What a message to a task brings.
pub(super) enum Resume {
    /// A new call (or a task that was not waiting for an answer).
    Fresh,
    /// The answer to the parked call's question: run it again with these answers.
    Answered(Pending),
    /// A message that does not answer: the task stays parked with this status message.
    Refused(Message),
    /// The stored question cannot be read back: the task fails with this reason.
    Broken(String),
}

/// Reads the message `ctx` brings against the task it continues.
pub(super) fn resume(ctx: &RequestContext, emit: &Emitter<'_>) -> Resume {
    let Some(parked) = ctx
        .stored_task
        .as_ref()
        .filter(|t| t.id == ctx.task_id && t.status.state == TaskState::InputRequired)
        .and_then(|t| t.status.message.as_ref())
    else {
        return Resume::Fresh;
    };
    let Some(state) = parked
        .metadata
        .as_ref()
        .and_then(|m| m.get(PENDING_METADATA))
    else {
        return Resume::Fresh;
    };
    let mut pending: Pending = match serde_json::from_value(state.clone()) {
        Ok(pending) => pending,
        Err(e) => return Resume::Broken(format!("the task's stored question is unreadable: {e}")),
    };
    let approval = match ApprovalRequest::read(parked) {
        Ok(approval) => approval,
        Err(e) => return Resume::Broken(format!("the task's stored approval is unreadable: {e}")),
    };
    let answer = match &approval {
        Some(request) => decision(ctx, request),
        None => elicit_result(&ctx.message, &pending),
    };
    match answer {
        Ok(answer) => {
            pending.answers.insert(pending.asked.clone(), answer);
            Resume::Answered(pending)
        }
        Err(why) => Resume::Refused(question_message(
            emit,
            &pending,
            approval.as_ref(),
            Some(&why),
        )),
    }
}

/// An approval's answer: the decision the server's approval gate admitted, or, without a gate,
/// the decision the message carries, checked against the pending request here.
fn decision(ctx: &RequestContext, request: &ApprovalRequest) -> Result<Value, String> {
    let decision = match ctx.approval() {
        Some(verified) => verified.decision.clone(),
        None => match ApprovalDecision::read(&ctx.message) {
            Ok(Some(decision)) => decision,
            Ok(None) => {
                return Err(format!(
                    "this task waits for an approval: continue it with an ApprovalDecision \
                     {{requestId: {:?}, decision: \"approve\" | \"deny\", digest}} in the \
                     message metadata `{}`",
                    request.request_id,
                    a2a_protocol_types::approval::APPROVAL_METADATA_KEY
                ));
            }
            Err(e) => return Err(e.message),
        },
    };
    if decision.request_id != request.request_id {
        return Err(format!(
            "the decision answers approval request {:?}, but {:?} is pending",
            decision.request_id, request.request_id
        ));
    }
    if decision.digest != request.digest {
        return Err(
            "the decision's digest does not match the pending request: the approver \
                    was shown a different action"
                .to_owned(),
        );
    }
    let action = if decision.decision == Decision::Approve {
        "accept"
    } else {
        "decline"
    };
    Ok(json!({ "action": action, "digest": decision.digest }))
}

/// A form or URL question's answer: the message's data part holding an `ElicitResult`.
fn elicit_result(message: &Message, pending: &Pending) -> Result<Value, String> {
    let asked = pending
        .question
        .get("message")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let usage = || {
        format!(
            "this task waits for an answer to {asked:?}: continue it with a data part \
             {{\"action\": \"accept\" | \"decline\" | \"cancel\", \"content\": {{…}}}}"
        )
    };
    let Some(data) = message.parts.iter().find_map(|p| match &p.content {
        PartContent::Data(data) => Some(data),
        _ => None,
    }) else {
        return Err(format!("the message has no data part; {}", usage()));
    };
    let mut reply = Reply::from_json(data).map_err(|e| format!("{e}; {}", usage()))?;
    // A protobuf client's integers arrive as doubles.
    if let Some(content) = &mut reply.content {
        let mut value = Value::Object(std::mem::take(content));
        integral_floats_to_integers(&mut value);
        if let Value::Object(map) = value {
            *content = map;
        }
    }
    Ok(reply.to_json())
}

/// The `input-required` status message that asks `pending`'s question (after `refusal`, the
/// reason the last message did not answer it, when there is one).
pub(super) fn question_message(
    emit: &Emitter<'_>,
    pending: &Pending,
    approval: Option<&ApprovalRequest>,
    refusal: Option<&str>,
) -> Message {
    let text = pending
        .question
        .get("message")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned();
    let mut parts = Vec::new();
    if let Some(why) = refusal {
        parts.push(Part::text(format!("Not answered: {why}")));
    }
    parts.push(Part::text(text));
    if approval.is_none() {
        parts.push(
            Part::data(pending.question.clone())
                .with_metadata(json!({ ELICITATION_EXTENSION: pending.asked })),
        );
    }
    let mut note = emit.note(parts);
    let mut metadata = Map::new();
    // A `Pending` always serializes.
    metadata.insert(
        PENDING_METADATA.to_owned(),
        serde_json::to_value(pending).unwrap_or(Value::Null),
    );
    note.metadata = Some(Value::Object(metadata));
    match approval {
        Some(request) => request.attach(&mut note),
        None => note.extensions = Some(vec![ELICITATION_EXTENSION.to_owned()]),
    }
    note
}

/// The approval request for `question`, asked by the caller `ctx` authenticated.
pub(super) fn approval_request(
    ctx: &RequestContext,
    tool: &str,
    arguments: &Value,
    question: &str,
) -> ApprovalRequest {
    let mut request = ApprovalRequest::new(
        uuid::Uuid::new_v4().to_string(),
        question,
        approval_digest(tool, arguments, question),
    );
    request.requested_by = ctx.caller_identity().map(str::to_owned);
    request
}

/// One turn of a call that may ask: the answers it starts with and the question it ends on
/// (a [`Replay`]), and the check that an approval answered on an earlier turn is for the very
/// question asked again at its place (its digest).
pub(super) struct Round {
    replay: Replay,
    checked: Arc<Checked>,
}

struct Checked {
    tool: String,
    arguments: Value,
    answers: BTreeMap<String, Value>,
    next: AtomicUsize,
    inner: Asker,
}

impl Round {
    pub(super) fn new(tool: &str, arguments: &Value, answers: BTreeMap<String, Value>) -> Self {
        let replay = Replay::new(answers.clone());
        let checked = Arc::new(Checked {
            tool: tool.to_owned(),
            arguments: arguments.clone(),
            answers,
            next: AtomicUsize::new(0),
            inner: replay.asker(),
        });
        Self { replay, checked }
    }

    /// The asker the call's tool puts its questions to.
    pub(super) fn asker(&self) -> Asker {
        Asker::from_shared(Arc::clone(&self.checked) as Arc<dyn Elicitor>)
    }

    /// Runs `work` until it ends or the call asks a question nobody answered yet.
    pub(super) fn run<F: std::future::Future>(&self, work: F) -> Run<'_, F> {
        self.replay.run(work)
    }

    /// The question this turn ended on, if the call asked one nobody answered yet.
    pub(super) fn asked(&self) -> Option<Asked> {
        self.replay.asked()
    }

    /// The answers this turn started with.
    pub(super) fn answers(&self) -> &BTreeMap<String, Value> {
        self.replay.answers()
    }
}

impl Elicitor for Checked {
    fn ask(&self, question: Question) -> BoxFuture<'static, Result<Reply, ElicitError>> {
        let key = question_key(self.next.fetch_add(1, Ordering::Relaxed));
        if let Some(answer) = self.answers.get(&key)
            && let Err(error) = self.check(&question, answer)
        {
            return Box::pin(async move { Err(error) });
        }
        self.inner.ask(question)
    }
}

impl Checked {
    /// An approval answered on an earlier turn must be for this very question: its digest.
    fn check(&self, question: &Question, answer: &Value) -> Result<(), ElicitError> {
        if !question.is_confirm() {
            return Ok(());
        }
        let message = question.message();
        let digest = approval_digest(&self.tool, &self.arguments, message);
        if answer.get("digest").and_then(Value::as_str) == Some(digest.as_str()) {
            return Ok(());
        }
        Err(ElicitError::Failed(format!(
            "the approval given answers another action than {message:?} (its digest differs): \
             the tool asked something else on this run"
        )))
    }
}

/// A question a peer's `input-required` status message asks, as one of ours: a data part of
/// [`ELICITATION_EXTENSION`] (a form or URL question) or an approval request. `None` when the
/// message asks nothing this crate can put to a user.
#[cfg(feature = "a2a-client")]
pub(crate) fn question_of(message: &Message) -> Option<(Question, Option<ApprovalRequest>)> {
    if let Ok(Some(request)) = ApprovalRequest::read(message) {
        // A yes/no question: a form with no fields, as `ToolContext::confirm` asks.
        let question = Question::Form {
            message: request.summary.clone(),
            schema: json!({ "type": "object", "properties": {} }),
        };
        return Some((question, Some(request)));
    }
    let params = message.parts.iter().find_map(|p| {
        let tagged = p
            .metadata
            .as_ref()
            .is_some_and(|m| m.get(ELICITATION_EXTENSION).is_some());
        match &p.content {
            PartContent::Data(data) if tagged => Some(data),
            _ => None,
        }
    })?;
    let message = params.get("message").and_then(Value::as_str)?.to_owned();
    match params.get("mode").and_then(Value::as_str) {
        Some("url") => {
            let url = params.get("url").and_then(Value::as_str)?.to_owned();
            Some((Question::Url { message, url }, None))
        }
        None | Some("form") => {
            let schema = params.get("requestedSchema").filter(|s| s.is_object())?;
            Some((
                Question::Form {
                    message,
                    schema: schema.clone(),
                },
                None,
            ))
        }
        Some(_) => None,
    }
}

/// The continuation that answers a peer's question with `reply`: an `ApprovalDecision` for an
/// approval request, else a data part holding the `ElicitResult`.
#[cfg(feature = "a2a-client")]
pub(crate) fn answer_message(
    reply: &Reply,
    approval: Option<&ApprovalRequest>,
    task_id: &str,
    context_id: &str,
) -> Message {
    let mut message = match approval {
        Some(request) => {
            let decision = if reply.action == crate::elicit::Action::Accept {
                ApprovalDecision::approve(request)
            } else {
                ApprovalDecision::deny(request)
            };
            let mut message = Message::user(
                uuid::Uuid::new_v4().to_string(),
                vec![Part::text(match reply.action {
                    crate::elicit::Action::Accept => "approved",
                    _ => "denied",
                })],
            );
            decision.attach(&mut message);
            message
        }
        None => Message::user(
            uuid::Uuid::new_v4().to_string(),
            vec![Part::data(reply.to_json())],
        ),
    };
    message.task_id = Some(a2a_protocol_types::task::TaskId::new(task_id));
    message.context_id = Some(a2a_protocol_types::task::ContextId::new(context_id));
    message
}
