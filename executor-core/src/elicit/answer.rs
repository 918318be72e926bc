//! What a question is and what comes back: [`Question`], the user's [`Answer`], and why no
//! answer came ([`ElicitError`]).

use std::fmt;

use serde_json::{Map, Value, json};

use crate::failure::{FailureKind, ToolFailure};

/// What a tool asks its user: a form (a message and the `requestedSchema`) or a URL to visit
/// (for what must never pass through the client: passwords, keys, payments).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Question {
    /// Form mode: the client renders `schema` and sends back its content.
    Form {
        /// What the user is asked, in words.
        message: String,
        /// The `requestedSchema`: a flat object of primitives.
        schema: Value,
    },
    /// URL mode: the user visits `url`; accepting means only that they agreed to go.
    Url {
        /// Why the user should visit the page.
        message: String,
        /// The page.
        url: String,
    },
}

impl Question {
    /// The params of an `elicitation/create` request (the same object is an MRTR
    /// `inputRequests` entry's params).
    #[must_use]
    pub fn to_params(&self) -> Value {
        match self {
            Self::Form { message, schema } => {
                json!({ "mode": "form", "message": message, "requestedSchema": schema })
            }
            Self::Url { message, url } => json!({ "mode": "url", "message": message, "url": url }),
        }
    }

    /// What the user is asked, in words.
    #[must_use]
    pub fn message(&self) -> &str {
        match self {
            Self::Form { message, .. } | Self::Url { message, .. } => message,
        }
    }

    /// Whether this is a yes/no question: a form with no fields, where accepting is the yes
    /// (what [`ToolContext::confirm`](crate::ToolContext::confirm) and `#[tool(confirm)]` ask;
    /// over A2A an approval request).
    #[must_use]
    pub fn is_confirm(&self) -> bool {
        matches!(self, Self::Form { schema, .. }
            if schema.get("properties").is_some_and(|p| p.as_object().is_some_and(serde_json::Map::is_empty)))
    }

    /// Whether this is a URL-mode question.
    #[must_use]
    pub fn is_url(&self) -> bool {
        matches!(self, Self::Url { .. })
    }
}

/// What the user did with a question: the `action` of an `ElicitResult`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// Answered (or, for a URL question, agreed to visit the page).
    Accept,
    /// Said no.
    Decline,
    /// Dismissed the question without choosing.
    Cancel,
}

/// The client's reply to a question: an action and, for an accepted form, its content.
#[derive(Debug, Clone, PartialEq)]
pub struct Reply {
    /// What the user did.
    pub action: Action,
    /// The form's content, when accepted.
    pub content: Option<Map<String, Value>>,
}

impl Reply {
    /// Accepted with no content: a yes to a yes/no question ([`ToolContext::confirm`]), an
    /// agreement to visit a URL.
    ///
    /// [`ToolContext::confirm`]: crate::ToolContext::confirm
    #[must_use]
    pub fn accept() -> Self {
        Self {
            action: Action::Accept,
            content: None,
        }
    }

    /// Accepted with a form's `content`.
    #[must_use]
    pub fn accept_with(content: Map<String, Value>) -> Self {
        Self {
            action: Action::Accept,
            content: Some(content),
        }
    }

    /// Declined: the user said no.
    #[must_use]
    pub fn decline() -> Self {
        Self {
            action: Action::Decline,
            content: None,
        }
    }

    /// Cancelled: the user dismissed the question.
    #[must_use]
    pub fn cancel() -> Self {
        Self {
            action: Action::Cancel,
            content: None,
        }
    }

    /// Reads an `ElicitResult` (`{action, content?}`).
    ///
    /// # Errors
    /// [`ElicitError::Failed`] when `value` is not one.
    pub fn from_json(value: &Value) -> Result<Self, ElicitError> {
        let action = match value.get("action").and_then(Value::as_str) {
            Some("accept") => Action::Accept,
            Some("decline") => Action::Decline,
            Some("cancel") => Action::Cancel,
            _ => {
                return Err(ElicitError::Failed(format!(
                    "the client's answer is not an ElicitResult (`action` must be `accept`, \
                     `decline` or `cancel`): {}",
                    snippet(value)
                )));
            }
        };
        let content = value.get("content").and_then(Value::as_object).cloned();
        Ok(Self { action, content })
    }

    /// The reply as an `ElicitResult`.
    #[must_use]
    pub fn to_json(&self) -> Value {
        let action = match self.action {
            Action::Accept => "accept",
            Action::Decline => "decline",
            Action::Cancel => "cancel",
        };
        match &self.content {
            Some(content) => json!({ "action": action, "content": content }),
            None => json!({ "action": action }),
        }
    }
}

/// The first 200 characters of `value`'s JSON, for a message.
fn snippet(value: &Value) -> String {
    let text = value.to_string();
    match text.char_indices().nth(200) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text,
    }
}

/// The user's answer to a typed question: like a `Result`, with two ways of not answering.
///
/// ```
/// use tool_executor::elicit::Answer;
///
/// let yes: Answer<u32> = Answer::Accepted(3);
/// assert_eq!(yes.accepted(), Some(3));
/// assert!(Answer::<u32>::Declined.accepted().is_none());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[must_use]
pub enum Answer<T> {
    /// The user answered; here is the value.
    Accepted(T),
    /// The user said no.
    Declined,
    /// The user dismissed the question.
    Cancelled,
}

impl<T> Answer<T> {
    /// The value, when the user answered.
    pub fn accepted(self) -> Option<T> {
        match self {
            Self::Accepted(value) => Some(value),
            Self::Declined | Self::Cancelled => None,
        }
    }

    /// Whether the user answered.
    #[must_use]
    pub fn is_accepted(&self) -> bool {
        matches!(self, Self::Accepted(_))
    }

    /// The answer with its value mapped.
    pub fn map<U>(self, f: impl FnOnce(T) -> U) -> Answer<U> {
        match self {
            Self::Accepted(value) => Answer::Accepted(f(value)),
            Self::Declined => Answer::Declined,
            Self::Cancelled => Answer::Cancelled,
        }
    }

    /// The value, or a terminal [`ToolFailure`] (code `declined` or `cancelled`) a tool
    /// returns with `?` when it cannot go on without an answer.
    ///
    /// # Errors
    /// The failure, when the user did not answer.
    pub fn or_stop(self) -> Result<T, ToolFailure> {
        match self {
            Self::Accepted(value) => Ok(value),
            Self::Declined => Err(ToolFailure::terminal("the user declined").with_code("declined")),
            Self::Cancelled => {
                Err(ToolFailure::terminal("the user cancelled").with_code("cancelled"))
            }
        }
    }
}

/// An accepted answer's content did not fit the form.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FormError {
    field: String,
    reason: String,
}

impl FormError {
    /// `field`'s answer is wrong for `reason`.
    #[must_use]
    pub fn new(field: &str, reason: impl Into<String>) -> Self {
        Self {
            field: field.to_owned(),
            reason: reason.into(),
        }
    }

    /// The field whose answer is wrong.
    #[must_use]
    pub fn field(&self) -> &str {
        &self.field
    }
}

impl fmt::Display for FormError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "field `{}`: {}", self.field, self.reason)
    }
}

impl std::error::Error for FormError {}

/// Why a question got no answer.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum ElicitError {
    /// Nothing can carry the question: the transport cannot ask (a provider loop, a stateless
    /// HTTP client on an old protocol) or the client did not declare the capability. Never a
    /// wait: the question fails at once.
    Unsupported(String),
    /// The client answered with content the form does not accept.
    InvalidAnswer(FormError),
    /// Sending the question or reading the answer failed.
    Failed(String),
    /// The question was handed to the client with the call's answer (MCP 2026-07-28): the call
    /// ends here and runs again with the answer. An async body never sees it (its future is
    /// dropped); a sync body returns it with `?`.
    Suspended,
}

impl fmt::Display for ElicitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Unsupported(why) => write!(f, "cannot ask the user: {why}"),
            Self::InvalidAnswer(error) => {
                write!(f, "the user's answer does not fit the form: {error}")
            }
            Self::Failed(why) => write!(f, "asking the user failed: {why}"),
            Self::Suspended => f.write_str(
                "the question was sent to the client; the call runs again with its answer",
            ),
        }
    }
}

impl std::error::Error for ElicitError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::InvalidAnswer(error) => Some(error),
            _ => None,
        }
    }
}

impl From<ElicitError> for ToolFailure {
    fn from(error: ElicitError) -> Self {
        let code = match &error {
            ElicitError::Unsupported(_) => "elicitation_unsupported",
            ElicitError::InvalidAnswer(_) => "invalid_answer",
            ElicitError::Failed(_) => "elicitation_failed",
            ElicitError::Suspended => "input_required",
        };
        let failure = ToolFailure::terminal(error.to_string()).with_code(code);
        match error {
            ElicitError::Failed(_) => failure.with_kind(FailureKind::Internal),
            _ => failure,
        }
    }
}
