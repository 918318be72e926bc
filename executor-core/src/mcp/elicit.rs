//! Questions from tools over MCP: on a 2025-11-25 session, an `elicitation/create` request to
//! the client; on 2026-07-28 (feature `request-state`), an `input_required` answer and a retry
//! that re-enters the tool with the answers (`mrtr.rs`); on a connection that can carry
//! neither, a clear `Unsupported` at once.

use rmcp::model::{
    ClientResult, ElicitRequest, ElicitRequestParams, ElicitationCapability, ProtocolVersion,
    ServerRequest,
};
use rmcp::service::{Peer, RequestContext, RoleServer};

use crate::elicit::{Asker, ElicitError, Elicitor, Question, Reply};
use crate::tool::{BoxFuture, ToolContext};

/// Whether `request` speaks MCP 2026-07-28 or later, where server-to-client requests are gone.
pub(super) fn is_mrtr(request: &RequestContext<RoleServer>) -> bool {
    request
        .protocol_version()
        .is_some_and(|v| v >= ProtocolVersion::V_2026_07_28)
}

/// `ctx` with the asker this request's tool puts its questions to.
///
/// - a session on a protocol before 2026-07-28 (stdio, stateful HTTP): `elicitation/create`;
/// - stateless HTTP before 2026-07-28: none can be carried (no session to send a request on),
///   so questions fail at once;
/// - 2026-07-28: `round`, the asker of this call's round (`mrtr.rs`), or a refusal without
///   `request-state`.
pub(super) fn attach(
    ctx: ToolContext,
    request: &RequestContext<RoleServer>,
    stateless: bool,
    round: Option<Asker>,
) -> ToolContext {
    if let Some(round) = round {
        return ctx.with_extension(round);
    }
    if is_mrtr(request) {
        return ctx.with_extension(Asker::new(Refuse(
            "asking on MCP 2026-07-28 needs the tool-executor feature `request-state` (the \
             question's state is sealed for the client to carry)",
        )));
    }
    if stateless {
        return ctx.with_extension(Asker::new(Refuse(
            "a stateless HTTP server has no session to send `elicitation/create` on before \
             MCP 2026-07-28",
        )));
    }
    ctx.with_extension(Asker::new(Session {
        peer: request.peer.clone(),
        declared: request.client_capabilities().and_then(|c| c.elicitation),
    }))
}

/// An asker that cannot carry questions, and says why.
struct Refuse(&'static str);

impl Elicitor for Refuse {
    fn ask(&self, _: Question) -> BoxFuture<'static, Result<Reply, ElicitError>> {
        let why = self.0;
        Box::pin(async move { Err(ElicitError::Unsupported(why.to_owned())) })
    }
}

/// `elicitation/create` to the client of a session, after checking it declared the mode.
struct Session {
    peer: Peer<RoleServer>,
    declared: Option<ElicitationCapability>,
}

impl Elicitor for Session {
    fn ask(&self, question: Question) -> BoxFuture<'static, Result<Reply, ElicitError>> {
        let peer = self.peer.clone();
        let checked = check_capability(self.declared.as_ref(), &question);
        Box::pin(async move {
            checked?;
            let mut params = question.to_params();
            if question.is_url() {
                // 2025-11-25 requires an id on a URL question (for its completion notice).
                params["elicitationId"] = elicitation_id().into();
            }
            let params: ElicitRequestParams = serde_json::from_value(params).map_err(|e| {
                ElicitError::Failed(format!("the question is not a valid form: {e}"))
            })?;
            let request = ServerRequest::ElicitRequest(ElicitRequest::new(params));
            let result = peer
                .send_request(request)
                .await
                .map_err(|e| ElicitError::Failed(format!("elicitation/create failed: {e}")))?;
            let ClientResult::ElicitResult(result) = result else {
                return Err(ElicitError::Failed(
                    "the client answered elicitation/create with another result".to_owned(),
                ));
            };
            let value = serde_json::to_value(&result)
                .map_err(|e| ElicitError::Failed(format!("unreadable ElicitResult: {e}")))?;
            Reply::from_json(&value)
        })
    }
}

/// The client must have declared `elicitation` (form mode when it names no mode) and, for a
/// URL question, `elicitation.url`: a question it cannot show fails now rather than waiting.
pub(super) fn check_capability(
    declared: Option<&ElicitationCapability>,
    question: &Question,
) -> Result<(), ElicitError> {
    let Some(declared) = declared else {
        return Err(ElicitError::Unsupported(
            "the client did not declare the `elicitation` capability".to_owned(),
        ));
    };
    let form = declared.form.is_some() || declared.url.is_none();
    let ok = if question.is_url() {
        declared.url.is_some()
    } else {
        form
    };
    if ok {
        return Ok(());
    }
    let mode = if question.is_url() { "url" } else { "form" };
    Err(ElicitError::Unsupported(format!(
        "the client did not declare `elicitation.{mode}`"
    )))
}

/// A fresh, unguessable `elicitationId` (128 random bits, hex).
fn elicitation_id() -> String {
    let mut bytes = [0u8; 16];
    // The OS generator failing leaves zeros: the id is then only unique per question, which
    // 2025-11-25 asks of it (it correlates, it does not authorize).
    let _ = getrandom::fill(&mut bytes);
    crate::elicit::ids::hex(&bytes)
}
