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
    ElicitRequest, ElicitRequestParams, ElicitationCapability, ErrorData, InputRequest,
    InputRequiredResult, InputResponses,
};
use rmcp::service::{RequestContext, RoleServer};
use serde_json::{Value, json};

use crate::elicit::replay::Replay;
use crate::elicit::{Asker, Binding, ElicitError, Elicitor, Question, Reply, StateKeys};
use crate::tool::BoxFuture;

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
/// it ends on, if any.
pub(super) struct Round {
    shared: Arc<Shared>,
    keys: Arc<StateKeys>,
    binding: Binding,
}

struct Shared {
    /// The answers from the state and this retry, and the question this attempt ends on.
    replay: Replay,
    declared: Option<ElicitationCapability>,
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
        Ok(Some(Self {
            shared: Arc::new(Shared {
                replay: Replay::new(answers),
                declared,
            }),
            keys,
            binding,
        }))
    }

    /// The asker the call's tool puts its questions to.
    pub(super) fn asker(&self) -> Asker {
        Asker::from_shared(Arc::clone(&self.shared) as Arc<dyn Elicitor>)
    }

    /// Runs `work` until it ends or asks a question nobody answered yet; then the
    /// `InputRequiredResult` that carries the question (the work's future is dropped).
    ///
    /// # Errors
    /// The call's answer when it asked: `Ok(InputRequiredResult)`, or the error that kept the
    /// question from being put in one.
    pub(super) async fn run<T>(
        &self,
        work: impl Future<Output = T>,
    ) -> Result<T, Result<InputRequiredResult, ErrorData>> {
        let asked = self.shared.replay.asked();
        let outcome = tokio::select! {
            biased;
            () = asked => None,
            outcome = work => Some(outcome),
        };
        // A sync body returns `Suspended` through `?`: its call ends with the question too.
        match (self.question(), outcome) {
            (Some(question), _) => Err(question),
            (None, Some(outcome)) => Ok(outcome),
            (None, None) => Err(Err(ErrorData::internal_error(
                "the tool asked a question that was not recorded",
                None,
            ))),
        }
    }

    fn question(&self) -> Option<Result<InputRequiredResult, ErrorData>> {
        let (key, question) = self.shared.replay.question()?;
        Some(self.input_required(&key, &question))
    }

    fn input_required(
        &self,
        key: &str,
        question: &Question,
    ) -> Result<InputRequiredResult, ErrorData> {
        let params: ElicitRequestParams =
            serde_json::from_value(question.to_params()).map_err(|e| {
                ErrorData::internal_error(format!("the question is not a valid form: {e}"), None)
            })?;
        let requests = BTreeMap::from([(
            key.to_owned(),
            InputRequest::Elicitation(ElicitRequest::new(params)),
        )]);
        let state = json!({ "answers": self.shared.replay.answers(), "asked": key });
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

impl Elicitor for Shared {
    fn ask(&self, question: Question) -> BoxFuture<'static, Result<Reply, ElicitError>> {
        let result = self.answer_or_record(question);
        Box::pin(async move { result })
    }
}

impl Shared {
    fn answer_or_record(&self, question: Question) -> Result<Reply, ElicitError> {
        self.replay.ask(
            question,
            |_, _| Ok(()),
            |question| super::elicit::check_capability(self.declared.as_ref(), question),
        )
    }
}
