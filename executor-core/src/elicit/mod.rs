//! Asking the user from inside a tool: typed forms (`#[derive(Form)]`), yes/no questions and
//! URL visits, carried by each transport in its own way.
//!
//! A tool takes a `&ToolContext` and calls [`ToolContext::elicit`](crate::ToolContext::elicit)
//! (or `confirm`, `elicit_url`, and the `_blocking` forms for sync tools). The transport that
//! runs the call decides how the question travels:
//!
//! | transport | how the question travels |
//! |---|---|
//! | MCP 2025-11-25 (stdio, stateful HTTP) | an `elicitation/create` request in the session |
//! | MCP 2026-07-28 | the call answers `input_required`; the retry carries the answer and the call runs again |
//! | A2A, a `ToolAgent` (feature `a2a`) | the task goes `input-required`; the next message on it answers, and the call runs again with the answers (approvals: the approval extension, digests of RFC 8785 canonical JSON) |
//! | a peer's tool through `A2aToolExecutor` | the peer's question is put to this call's own asker |
//! | a provider loop ([`Definitions::answer`]) | the call waits ([`Waiting`]); the application records the reply and [`Definitions::resume`]s it |
//! | a [`Runtime`] with an approver | [`Runtime::with_approver`] answers |
//! | anything else (a plain `execute`) | [`ElicitError::Unsupported`], at once |
//!
//! [`Definitions::answer`]: crate::provider::Definitions::answer
//! [`Definitions::resume`]: crate::provider::Definitions::resume
//! [`Waiting`]: crate::provider::Waiting
//! [`Runtime`]: crate::runtime::Runtime
//! [`Runtime::with_approver`]: crate::runtime::Runtime::with_approver
//!
//! Transports that run the call again with the answer (MCP 2026-07-28 and others) share
//! [`Replay`]: ask before side effects, since everything before the question runs again.
//!
//! A form is a flat object of primitives; [`FormField`] is implemented only for the types form
//! mode can express, so a nested struct or a map is a compile error at the field.

mod answer;
mod approve;
mod ask;
#[cfg(any(feature = "a2a", feature = "request-state"))]
mod canonical;
mod form;
#[cfg(any(feature = "mcp", feature = "a2a", feature = "request-state"))]
pub(crate) mod ids;
mod replay;
#[cfg(feature = "request-state")]
mod state;

pub use answer::{Action, Answer, ElicitError, FormError, Question, Reply};
pub use approve::{approve, approve_blocking, summary};
pub use ask::{Asker, Elicitor};
#[cfg(any(feature = "a2a", feature = "request-state"))]
#[cfg_attr(docsrs, doc(cfg(any(feature = "a2a", feature = "request-state"))))]
pub use canonical::{canonical_json, json_digest};
pub use form::{
    Answers, Bound, ChoiceStyle, ChoicesField, Field, FieldBuilder, Form, FormChoice, FormField,
    NumberField, TextField, choice_decode, choice_schema,
};
pub use replay::{Asked, MAX_QUESTIONS_PER_CALL, Replay, Run, question_key};
#[cfg(feature = "request-state")]
#[cfg_attr(docsrs, doc(cfg(feature = "request-state")))]
pub use state::{
    Binding, DEFAULT_STATE_TTL, MAX_STATE_BYTES, MemoryReplayGuard, ReplayGuard, StateError,
    StateKeys,
};
/// `#[derive(Form)]`, beside the trait of the same name (as serde's `Serialize`).
pub use tool_executor_macros::Form;
