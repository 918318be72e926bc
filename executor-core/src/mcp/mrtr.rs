//! MCP 2026-07-28 questions (MRTR, feature `request-state`): a tool's question ends the call
//! with `InputRequiredResult {inputRequests, requestState}`; the client retries the call with
//! `inputResponses` and the exact `requestState`, and the tool runs again from the start with
//! every answer so far available, each question answered in the order it was asked.
//!
//! The state carries the answers of earlier rounds and the key of the question asked, sealed
//! ([`StateKeys`]) and bound to the tool, its arguments and the caller, so any replica holding
//! the key continues the call and nothing else can.

use std::collections::BTreeMap;
use std::future::Future;
use std::sync::{Arc, OnceLock};

use rmcp::model::{
    ElicitRequest, ElicitRequestParams, ErrorData, InputRequest, InputRequiredResult,
    InputResponses,
};
use rmcp::service::{RequestContext, RoleServer};
use serde_json::{Value, json};

use crate::elicit::{Asked, Asker, Binding, Replay, Reply, Run, StateKeys};

/// The process's own keys, for a server given none.
fn process_keys() -> Arc<StateKeys> {
    static KEYS: OnceLock<Arc<StateKeys>> = OnceLock::new();
    Arc::clone(KEYS.get_or_init(|| Arc::new(StateKeys::random())))
}

/// What a `tools/call` brings to a round: the call and, on a retry, its state and answers.
#[derive(Clone, Copy)]
pub(super) struct Retry<'a> {
    pub(super) tool: &'a str,
    pub(super) arguments: &'a Value,
    pub(super) state: Option<&'a str>,
    pub(super) responses: Option<&'a InputResponses>,
}

/// One attempt of a 2026-07-28 call that may ask: the answers it starts with and the question
/// it ends on, if any (an [`elicit::Replay`](Replay) sealed into the state between attempts).
pub(super) struct Round {
    replay: Replay,
    keys: Arc<StateKeys>,
    binding: Binding,
}

impl Round {
    /// The round of `request`, on a 2026-07-28 call: its state opened (refused with -32602
    /// when it is not a valid state for this call) and the retry's answer taken in.
    pub(super) fn begin(
        keys: Option<&Arc<StateKeys>>,
        request: Retry<'_>,
        context: &RequestContext<RoleServer>,
    ) -> Result<Option<Self>, ErrorData> {
        if !super::elicit::is_mrtr(context) {
            return Ok(None);
        }
        let keys = keys.map_or_else(process_keys, Arc::clone);
        #[cfg(feature = "mcp-http")]
        let principal = super::context::principal_of(context);
        #[cfg(feature = "mcp-http")]
        let principal = principal.as_ref().map(|p| p.subject());
        #[cfg(not(feature = "mcp-http"))]
        let principal = None;
        let binding = Binding::new(request.tool, request.arguments, principal);
        let answers = match request.state {
            Some(token) => answers_from(&keys, &binding, token, request.responses)?,
            None => BTreeMap::new(),
        };
        let declared = context.client_capabilities().and_then(|c| c.elicitation);
        let replay = Replay::checked(answers, move |question| {
            super::elicit::check_capability(declared.as_ref(), question)
        });
        Ok(Some(Self {
            replay,
            keys,
            binding,
        }))
    }

    /// The asker the call's tool puts its questions to.
    pub(super) fn asker(&self) -> Asker {
        self.replay.asker()
    }

    /// Runs `work` until it ends or asks a question nobody answered yet; then the question
    /// (the work's future is dropped), which [`input_required`](Self::input_required) puts in
    /// the call's answer.
    pub(super) fn run<F: Future>(&self, work: F) -> Run<'_, F> {
        self.replay.run(work)
    }

    /// The `InputRequiredResult` that carries `asked`, with the sealed state.
    ///
    /// # Errors
    /// When the question cannot be put in one (not a valid form).
    pub(super) fn input_required(
        &self,
        Asked { key, question }: &Asked,
    ) -> Result<InputRequiredResult, ErrorData> {
        let params: ElicitRequestParams =
            serde_json::from_value(question.to_params()).map_err(|e| {
                ErrorData::internal_error(format!("the question is not a valid form: {e}"), None)
            })?;
        let requests = BTreeMap::from([(
            key.to_owned(),
            InputRequest::Elicitation(ElicitRequest::new(params)),
        )]);
        let state = json!({ "answers": self.replay.answers(), "asked": key });
        let sealed = self.keys.seal(&self.binding, &state);
        Ok(InputRequiredResult::new(Some(requests), Some(sealed)))
    }
}

/// The answers a retry brings: those sealed in its state, plus its `inputResponses` entry for
/// the question the state says was asked (other keys are ignored: never asked).
fn answers_from(
    keys: &StateKeys,
    binding: &Binding,
    token: &str,
    responses: Option<&InputResponses>,
) -> Result<BTreeMap<String, Value>, ErrorData> {
    let refuse = |why: String| ErrorData::invalid_params(why, None);
    let state = keys
        .open(binding, token)
        .map_err(|e| refuse(e.to_string()))?;
    let mut answers: BTreeMap<String, Value> = match state.get("answers") {
        Some(Value::Object(map)) => map.clone().into_iter().collect(),
        _ => BTreeMap::new(),
    };
    if let Some(asked) = state.get("asked").and_then(Value::as_str)
        && let Some(reply) = responses.and_then(|r| r.get(asked))
    {
        Reply::from_json(reply).map_err(|e| refuse(format!("inputResponses[{asked:?}]: {e}")))?;
        answers.insert(asked.to_owned(), reply.clone());
    }
    Ok(answers)
}
