//! One call on the wire: the message that calls a skill, a streamed or blocking send, and the
//! `CancelTask` a dropped streaming call sends.

use std::sync::Arc;

use a2a_protocol_client::A2aClient;
use a2a_protocol_types::agent_card::AgentCard;
use a2a_protocol_types::message::{Message, Part};
use a2a_protocol_types::params::MessageSendParams;
use a2a_protocol_types::responses::SendMessageResponse;
use serde_json::{Map, Value, json};

use super::catalog::Catalog;
use super::catalog::{Input, TEXT_ARGUMENT};
use super::config::A2aClientConfig;
use super::outcome::{Fold, Outcome, Parked, answer, client_failure, unexpected};
use crate::agent::ask::answer_message;
use crate::agent::tools::{ATTEMPT_METADATA, IDEMPOTENCY_KEY_METADATA};
use crate::failure::ToolFailure;
use crate::tool::ToolContext;
use crate::tool::call::args::describe;
use crate::transport::cancel::CancelOnDrop;

/// The connection to one agent: its client, its card and the skills it offers as tools.
pub(super) struct Shared {
    pub(super) client: A2aClient,
    pub(super) card: AgentCard,
    pub(super) catalog: Catalog,
    pub(super) config: A2aClientConfig,
}

impl Shared {
    pub(super) async fn streamed(
        self: &Arc<Self>,
        tool: &str,
        params: MessageSendParams,
        fold: &mut Fold<'_>,
    ) -> Outcome {
        let shared = self;
        let mut stream = shared
            .client
            .stream_message(params)
            .await
            .map_err(|e| client_failure(tool, &shared.card.name, e))?;
        let mut guard = CancelOnDrop::disarmed();
        loop {
            let Some(event) = stream.next().await else {
                return Err(client_failure(
                    tool,
                    &shared.card.name,
                    a2a_protocol_client::ClientError::Transport(
                        "the stream ended before the task did".to_owned(),
                    ),
                ));
            };
            let event = event.map_err(|e| client_failure(tool, &shared.card.name, e))?;
            let done = fold.event(event).await;
            match &fold.task_id {
                Some(task_id) => guard.arm(cancel_task(Arc::clone(shared), task_id.clone())),
                None => guard.disarm(),
            }
            if let Some(outcome) = done {
                guard.disarm();
                return outcome;
            }
        }
    }

    pub(super) async fn blocking(
        &self,
        tool: &str,
        params: MessageSendParams,
        fold: &mut Fold<'_>,
    ) -> Outcome {
        let agent = &self.card.name;
        let response = self
            .client
            .send_message(params)
            .await
            .map_err(|e| client_failure(tool, agent, e))?;
        let task = match response {
            SendMessageResponse::Task(task) => task,
            SendMessageResponse::Message(message) => return Ok(answer(&message)),
            _ => {
                return Err(unexpected(
                    tool,
                    agent,
                    "an answer this client does not know",
                ));
            }
        };
        let state = task.status.state;
        match fold.task(task).await {
            Some(outcome) => outcome,
            None => Err(unexpected(tool, agent, &format!("a task still `{state}`"))),
        }
    }
}

impl Shared {
    /// Asks `ctx`'s user the question a task is parked on and answers with the continuation
    /// message. While the caller decides, dropping the call (its deadline, its cancellation,
    /// an MCP 2026-07-28 round that ends on the question) cancels the parked task.
    pub(super) async fn relay(
        self: &Arc<Self>,
        ctx: &ToolContext,
        parked: Parked,
    ) -> Result<Message, ToolFailure> {
        let mut guard = CancelOnDrop::armed(cancel_task(Arc::clone(self), parked.task_id.clone()));
        let reply = ctx.ask(parked.question).await?;
        guard.disarm();
        Ok(answer_message(
            &reply,
            parked.approval.as_ref(),
            &parked.task_id,
            &parked.context_id,
        ))
    }
}

/// The message that calls `tool`: a data part for a published skill, a text part otherwise.
/// The data part carries the caller's attempt and idempotency key from `ctx` in its metadata
/// (when it has a key or is a retry), for the agent to give the tool.
pub(super) fn message_for(
    tool: &str,
    input: &Input,
    params: &Value,
    ctx: &ToolContext,
) -> Result<Message, ToolFailure> {
    let arguments = match params {
        Value::Object(_) => params.clone(),
        Value::Null => json!({}),
        other => {
            return Err(ToolFailure::invalid_arguments(format!(
                "arguments: expected an object, got {}",
                describe(other)
            )));
        }
    };
    let part = match input {
        Input::Data => {
            let part = Part::data(json!({"tool": tool, "arguments": arguments}));
            match caller_metadata(ctx) {
                Some(metadata) => part.with_metadata(metadata),
                None => part,
            }
        }
        Input::Text => match arguments.get(TEXT_ARGUMENT) {
            Some(Value::String(text)) => Part::text(text.clone()),
            None => {
                return Err(ToolFailure::invalid_arguments(format!(
                    "{TEXT_ARGUMENT}: missing required argument"
                )));
            }
            Some(other) => {
                return Err(ToolFailure::invalid_arguments(format!(
                    "{TEXT_ARGUMENT}: expected a string, got {}",
                    describe(other)
                )));
            }
        },
    };
    Ok(Message::user(uuid::Uuid::new_v4().to_string(), vec![part]))
}

/// `{"executor/attempt": n, "executor/idempotencyKey": key}` for a call with a key or past
/// its first attempt; nothing for a plain first call.
fn caller_metadata(ctx: &ToolContext) -> Option<Value> {
    let key = ctx.idempotency_key();
    if key.is_none() && ctx.attempt() <= 1 {
        return None;
    }
    let mut metadata = Map::new();
    metadata.insert(ATTEMPT_METADATA.into(), ctx.attempt().into());
    if let Some(key) = key {
        metadata.insert(IDEMPOTENCY_KEY_METADATA.into(), key.into());
    }
    Some(Value::Object(metadata))
}

/// Sends `CancelTask` for a task whose caller stopped waiting.
async fn cancel_task(shared: Arc<Shared>, task_id: String) {
    let limit = shared.config.cancel_timeout;
    // A task that ended meanwhile is not cancelable; nothing is left to do either way.
    let _ = tokio::time::timeout(limit, shared.client.cancel_task(task_id)).await;
}
