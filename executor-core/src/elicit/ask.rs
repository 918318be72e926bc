//! Asking from inside a tool: [`ToolContext::elicit`], [`ToolContext::confirm`],
//! [`ToolContext::elicit_url`] and their blocking forms, over whatever [`Elicitor`] the
//! transport attached to the call.

use std::fmt;
use std::future::Future;
use std::sync::Arc;

use serde_json::{Value, json};

use super::answer::{Action, Answer, ElicitError, Question, Reply};
use super::form::Form;
use crate::tool::context::ToolContext;
use crate::tool::execution::BoxFuture;

/// How a transport puts a question to the user: an MCP session's `elicitation/create`, an
/// MCP 2026-07-28 `InputRequiredResult`, an A2A `input-required` task, or an application's
/// own prompt in a test or a provider loop.
pub trait Elicitor: Send + Sync + 'static {
    /// Puts `question` to the user and resolves with the reply.
    ///
    /// # Errors
    /// [`ElicitError::Unsupported`] when the question cannot be carried (resolved at once,
    /// never a wait), [`ElicitError::Failed`] when carrying it failed,
    /// [`ElicitError::Suspended`] when the transport ends the call and runs it again with the
    /// answer.
    fn ask(&self, question: Question) -> BoxFuture<'static, Result<Reply, ElicitError>>;
}

/// Any `async` closure from a [`Question`] to a [`Reply`] is an elicitor: an application's own
/// prompt, a policy in a test, an approver (`Runtime::with_approver`).
///
/// ```
/// use tool_executor::elicit::{Asker, ElicitError, Question, Reply};
///
/// // Approves every yes/no question; refuses forms it cannot fill.
/// let approver = Asker::new(|question: Question| async move {
///     if question.is_confirm() {
///         Ok(Reply::accept())
///     } else {
///         Err(ElicitError::Unsupported("only approvals here".into()))
///     }
/// });
/// # let _ = approver;
/// ```
impl<F, Fut> Elicitor for F
where
    F: Fn(Question) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<Reply, ElicitError>> + Send + 'static,
{
    fn ask(&self, question: Question) -> BoxFuture<'static, Result<Reply, ElicitError>> {
        Box::pin(self(question))
    }
}

/// The [`Elicitor`] of a call, as the [`Extensions`](crate::tool::Extensions) value a
/// transport attaches (`ctx.with_extension(Asker::new(…))`). A call without one cannot ask:
/// its questions fail with [`ElicitError::Unsupported`].
#[derive(Clone)]
pub struct Asker(Arc<dyn Elicitor>);

impl Asker {
    /// Wraps `elicitor`.
    pub fn new(elicitor: impl Elicitor) -> Self {
        Self(Arc::new(elicitor))
    }

    /// Wraps an elicitor already shared.
    #[must_use]
    pub fn from_shared(elicitor: Arc<dyn Elicitor>) -> Self {
        Self(elicitor)
    }
}

/// An asker is an elicitor too: one that wraps another (a check in front of a [`Replay`]'s
/// asker, say) hands it the question.
///
/// [`Replay`]: super::Replay
impl Elicitor for Asker {
    fn ask(&self, question: Question) -> BoxFuture<'static, Result<Reply, ElicitError>> {
        self.0.ask(question)
    }
}

impl fmt::Debug for Asker {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Asker")
    }
}

/// The `requestedSchema` of a yes/no question: an empty form, where accepting is the yes.
fn confirm_schema() -> Value {
    json!({ "type": "object", "properties": {} })
}

impl ToolContext {
    /// Asks the user to fill in the form `T` (`#[derive(Form)]`).
    ///
    /// Over MCP 2025-11-25 this is an `elicitation/create` request in the session; over MCP
    /// 2026-07-28 the call answers `input_required` and runs again with the answer, so **ask
    /// before side effects** (or make them idempotent with
    /// [`idempotency_key`](Self::idempotency_key)): everything before the question runs again.
    ///
    /// ```
    /// use tool_executor::elicit::{Answer, Form};
    /// use tool_executor::{ToolContext, ToolFailure, tool};
    ///
    /// #[derive(Form)]
    /// struct Seats {
    ///     /// How many seats to book.
    ///     #[form(min = 1, max = 8)]
    ///     count: u8,
    /// }
    ///
    /// /// Books seats for a show, asking how many.
    /// #[tool]
    /// async fn book(ctx: &ToolContext, show: String) -> Result<String, ToolFailure> {
    ///     match ctx.elicit::<Seats>(format!("How many seats for {show}?")).await? {
    ///         Answer::Accepted(seats) => Ok(format!("{} seats booked", seats.count)),
    ///         Answer::Declined | Answer::Cancelled => Ok("nothing booked".into()),
    ///     }
    /// }
    /// ```
    ///
    /// # Errors
    /// [`ElicitError::Unsupported`] when the transport or client cannot ask (at once, never a
    /// wait), [`ElicitError::InvalidAnswer`] when the content does not fit the form,
    /// [`ElicitError::Failed`] when carrying the question failed. Each converts into a
    /// [`ToolFailure`](struct@crate::ToolFailure) with `?`.
    pub async fn elicit<T: Form>(
        &self,
        message: impl Into<String>,
    ) -> Result<Answer<T>, ElicitError> {
        let question = Question::Form {
            message: message.into(),
            schema: T::schema(),
        };
        let reply = self.ask(question).await?;
        decode(reply)
    }

    /// Asks the user to visit `url` (URL mode): for what must never pass through the client
    /// (passwords, API keys, payments). `Accepted` means only that the user agreed to go; the
    /// page itself tells your server the outcome.
    ///
    /// # Errors
    /// As [`elicit`](Self::elicit); also `Unsupported` when the client declared no URL mode.
    pub async fn elicit_url(
        &self,
        message: impl Into<String>,
        url: impl Into<String>,
    ) -> Result<Answer<()>, ElicitError> {
        let question = Question::Url {
            message: message.into(),
            url: url.into(),
        };
        let reply = self.ask(question).await?;
        Ok(answer_of(reply.action, ()))
    }

    /// Asks the user a yes/no question: `true` only when the user accepted.
    ///
    /// # Errors
    /// As [`elicit`](Self::elicit).
    pub async fn confirm(&self, message: impl Into<String>) -> Result<bool, ElicitError> {
        let question = Question::Form {
            message: message.into(),
            schema: confirm_schema(),
        };
        Ok(self.ask(question).await?.action == Action::Accept)
    }

    /// [`elicit`](Self::elicit) for a sync tool's body (on the blocking pool): waits on the
    /// thread for the answer.
    ///
    /// # Errors
    /// As [`elicit`](Self::elicit), and [`ElicitError::Suspended`] over MCP 2026-07-28:
    /// return it with `?`, the call runs again with the answer.
    pub fn elicit_blocking<T: Form>(
        &self,
        message: impl Into<String>,
    ) -> Result<Answer<T>, ElicitError> {
        let question = Question::Form {
            message: message.into(),
            schema: T::schema(),
        };
        decode(self.ask_blocking(question)?)
    }

    /// [`confirm`](Self::confirm) for a sync tool's body.
    ///
    /// # Errors
    /// As [`elicit_blocking`](Self::elicit_blocking).
    pub fn confirm_blocking(&self, message: impl Into<String>) -> Result<bool, ElicitError> {
        let question = Question::Form {
            message: message.into(),
            schema: confirm_schema(),
        };
        Ok(self.ask_blocking(question)?.action == Action::Accept)
    }

    /// Whether the transport that runs this call can ask the user at all.
    #[must_use]
    pub fn can_elicit(&self) -> bool {
        self.extension::<Asker>().is_some()
    }

    /// Puts a prepared [`Question`] to the user and returns the raw [`Reply`]: what a relay
    /// does with a question it received from elsewhere (a remote server's, a remote agent's).
    /// Tools ask with [`elicit`](Self::elicit), [`confirm`](Self::confirm) or
    /// [`elicit_url`](Self::elicit_url).
    ///
    /// # Errors
    /// As [`elicit`](Self::elicit).
    pub async fn ask(&self, question: Question) -> Result<Reply, ElicitError> {
        let asker = self.asker()?;
        match asker.0.ask(question).await {
            // The transport took the question with the call's answer and drops this call's
            // future: nothing after the question runs in this attempt.
            Err(ElicitError::Suspended) => std::future::pending().await,
            other => other,
        }
    }

    fn ask_blocking(&self, question: Question) -> Result<Reply, ElicitError> {
        let asker = self.asker()?.clone();
        let handle = tokio::runtime::Handle::try_current().map_err(|_| {
            ElicitError::Unsupported("the call runs outside a Tokio runtime".to_owned())
        })?;
        let (tx, rx) = std::sync::mpsc::sync_channel(1);
        handle.spawn(async move {
            let _ = tx.send(asker.0.ask(question).await);
        });
        // The spawned task always sends, unless the runtime drops it while shutting down.
        rx.recv().unwrap_or_else(|_| {
            Err(ElicitError::Failed(
                "the runtime shut down before the answer came".to_owned(),
            ))
        })
    }

    fn asker(&self) -> Result<&Asker, ElicitError> {
        self.extension::<Asker>().ok_or_else(|| {
            ElicitError::Unsupported(
                "the transport that runs this call cannot carry questions to a user".to_owned(),
            )
        })
    }
}

fn answer_of<T>(action: Action, value: T) -> Answer<T> {
    match action {
        Action::Accept => Answer::Accepted(value),
        Action::Decline => Answer::Declined,
        Action::Cancel => Answer::Cancelled,
    }
}

fn decode<T: Form>(reply: Reply) -> Result<Answer<T>, ElicitError> {
    match reply.action {
        Action::Decline => return Ok(Answer::Declined),
        Action::Cancel => return Ok(Answer::Cancelled),
        Action::Accept => {}
    }
    let content = reply.content.unwrap_or_default();
    T::decode(&content)
        .map(Answer::Accepted)
        .map_err(ElicitError::InvalidAnswer)
}
