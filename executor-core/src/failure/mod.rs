//! `ToolFailure`: why a tool call did not produce a value, and what the caller may do about it.
//!
//! The classification is the seed system's: an *ordinary* failure may be retried, a *terminal*
//! one must stop the plan, and an *unhandled* one (private flag, never on the wire) tells a
//! fallback executor that the call was not this executor's to serve. On top of that a failure
//! carries what transports need: a stable [`code`](ToolFailure::code), a retry hint, optional
//! structured data and a [`FailureKind`] saying whose fault it was.
//!
//! Error types become failures through `From` impls: `#[derive(ToolFailure)]` writes one per
//! error enum or struct (see the crate docs, "Typed failures", for its keys) and implements
//! [`FailureCodes`]; text converts as an ordinary failure; arbitrary errors
//! ([`from_error`](ToolFailure::from_error), `Box<dyn Error>`, `anyhow::Error` behind the
//! `anyhow` feature) as ordinary *redacted* ones. [`transport`] says what a failure becomes on
//! each transport.

use std::borrow::Cow;
use std::error::Error as StdError;
use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::Value;

pub(crate) mod support;
pub mod transport;

/// Whether a caller may retry a failed call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Classification {
    /// The call failed but may succeed if tried again (the default).
    #[default]
    Ordinary,
    /// The call must not be retried and the plan that issued it should stop.
    Terminal,
}

/// Whose fault a failure was. Transports use it to pick a wire representation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum FailureKind {
    /// The arguments did not match the tool's input schema.
    InvalidArguments,
    /// No tool of that name is served here.
    UnknownTool,
    /// The call ran out of time (the tool's own timeout or the caller's budget).
    Timeout,
    /// The caller cancelled the call.
    Cancelled,
    /// The tool ran and reported an error (the default).
    #[default]
    Tool,
    /// A bug: the tool panicked or the runtime broke an invariant.
    Internal,
}

impl FailureKind {
    /// The stable `snake_case` name of the kind, as serialized.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::InvalidArguments => "invalid_arguments",
            Self::UnknownTool => "unknown_tool",
            Self::Timeout => "timeout",
            Self::Cancelled => "cancelled",
            Self::Tool => "tool",
            Self::Internal => "internal",
        }
    }
}

/// The message models and peers see in place of a redacted failure's text.
pub const REDACTED_MESSAGE: &str = "the tool failed; details were withheld";

/// The failure codes an error type can produce. `#[derive(ToolFailure)]` implements it, and a
/// `#[tool]` returning `Result<T, E>` copies `E::FAILURE_CODES` into its
/// [`ToolSpec::failure_codes`](crate::tool::ToolSpec::failure_codes), so a client can see how the
/// tool fails before calling it. Error types without it (`String`, `ToolFailure`, a
/// hand-written `From` impl) list no codes.
///
/// ```
/// use tool_executor::prelude::*;
/// use tool_executor::failure::FailureCodes;
///
/// #[derive(Debug, thiserror::Error, ToolFailure)]
/// enum LookupError {
///     #[error("no such key")]
///     #[failure(terminal)]
///     Missing,
///     #[error("store busy")]
///     #[failure(code = "busy", retry_after = "50ms")]
///     Unavailable,
/// }
///
/// assert_eq!(LookupError::FAILURE_CODES, ["missing", "busy"]);
/// ```
pub trait FailureCodes {
    /// Every code the type's `From<Self> for ToolFailure` can produce, in declaration order.
    const FAILURE_CODES: &'static [&'static str];
}

/// A failed tool call.
///
/// Build one with [`ToolFailure::ordinary`], [`ToolFailure::terminal`] or
/// [`ToolFailure::unhandled`] and refine it with the `with_*` methods; the `From` impls turn
/// strings into ordinary failures (never unhandled: the seed system's "unknown tool" text
/// sniffing let a peer's error text reroute calls, car#3104).
///
/// ```
/// use tool_executor::{ToolFailure, FailureKind};
/// use std::time::Duration;
///
/// let failure = ToolFailure::ordinary("rate limited")
///     .with_code("rate_limited")
///     .with_retry_after(Duration::from_millis(200));
/// assert!(!failure.is_terminal());
/// assert_eq!(failure.code(), "rate_limited");
/// assert_eq!(failure.kind(), FailureKind::Tool);
/// ```
#[derive(Clone, Serialize, Deserialize)]
#[serde(transparent)]
pub struct ToolFailure(Box<Repr>);

/// Boxed so `Result<T, ToolFailure>` stays one word wider than `T`: failures are the cold path.
#[derive(Clone, Serialize, Deserialize)]
struct Repr {
    message: Cow<'static, str>,
    #[serde(default)]
    classification: Classification,
    #[serde(default)]
    kind: FailureKind,
    #[serde(default = "default_code")]
    code: Cow<'static, str>,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        rename = "retry_after_ms",
        with = "crate::millis"
    )]
    retry_after: Option<Duration>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    data: Option<Value>,
    #[serde(skip)]
    unhandled: bool,
    /// The original error, kept for `Debug`, `source()` and logs; never serialized.
    #[serde(skip)]
    source: Option<Arc<dyn StdError + Send + Sync>>,
    /// The original text of a redacted failure; never serialized.
    #[serde(skip)]
    withheld: Option<Cow<'static, str>>,
}

fn default_code() -> Cow<'static, str> {
    Cow::Borrowed("tool_error")
}

impl ToolFailure {
    fn new(message: impl Into<Cow<'static, str>>, classification: Classification) -> Self {
        Self(Box::new(Repr {
            message: message.into(),
            classification,
            kind: FailureKind::Tool,
            code: default_code(),
            retry_after: None,
            data: None,
            unhandled: false,
            source: None,
            withheld: None,
        }))
    }

    /// A failure the caller may retry.
    #[must_use]
    pub fn ordinary(message: impl Into<Cow<'static, str>>) -> Self {
        Self::new(message, Classification::Ordinary)
    }

    /// A failure that must not be retried and stops the plan.
    #[must_use]
    pub fn terminal(message: impl Into<Cow<'static, str>>) -> Self {
        Self::new(message, Classification::Terminal)
    }

    /// "Not mine": lets a fallback executor serve the call. Never on the wire.
    #[must_use]
    pub fn unhandled(message: impl Into<Cow<'static, str>>) -> Self {
        let mut failure = Self::new(message, Classification::Ordinary);
        failure.0.unhandled = true;
        failure
    }

    /// The arguments did not decode: an ordinary failure of kind
    /// [`FailureKind::InvalidArguments`] with code `invalid_arguments`.
    #[must_use]
    pub fn invalid_arguments(message: impl Into<Cow<'static, str>>) -> Self {
        Self::ordinary(message)
            .with_kind(FailureKind::InvalidArguments)
            .with_code("invalid_arguments")
    }

    /// No tool of this name here: an *unhandled* failure, so a fallback may take the call.
    #[must_use]
    pub fn unknown_tool(tool: &str) -> Self {
        let mut failure = Self::unhandled(format!("unknown tool `{tool}`"))
            .with_kind(FailureKind::UnknownTool)
            .with_code("unknown_tool");
        failure.0.classification = Classification::Ordinary;
        failure
    }

    /// The call ran out of time. Ordinary: a retry may be faster.
    #[must_use]
    pub fn timeout(tool: &str, after: Duration) -> Self {
        Self::ordinary(format!(
            "tool `{tool}` timed out after {}ms",
            after.as_millis()
        ))
        .with_kind(FailureKind::Timeout)
        .with_code("timeout")
    }

    /// The caller cancelled the call. Terminal: the caller no longer wants the result.
    #[must_use]
    pub fn cancelled(tool: &str) -> Self {
        Self::terminal(format!("tool `{tool}` was cancelled"))
            .with_kind(FailureKind::Cancelled)
            .with_code("cancelled")
    }

    /// A bug inside the tool or the runtime. The detail is kept for logs, not shown.
    #[must_use]
    pub fn internal(detail: impl Into<Cow<'static, str>>) -> Self {
        Self::ordinary(detail)
            .with_kind(FailureKind::Internal)
            .with_code("internal")
            .redact()
    }

    /// Sets the stable machine-readable code.
    #[must_use]
    pub fn with_code(mut self, code: impl Into<Cow<'static, str>>) -> Self {
        self.0.code = code.into();
        self
    }

    /// Sets the kind.
    #[must_use]
    pub fn with_kind(mut self, kind: FailureKind) -> Self {
        self.0.kind = kind;
        self
    }

    /// Sets the classification.
    #[must_use]
    pub fn with_classification(mut self, classification: Classification) -> Self {
        self.0.classification = classification;
        self.0.unhandled = false;
        self
    }

    /// Sets how long a caller should wait before retrying.
    #[must_use]
    pub fn with_retry_after(mut self, after: Duration) -> Self {
        self.0.retry_after = Some(after);
        self
    }

    /// Attaches structured data for callers that can read it.
    #[must_use]
    pub fn with_data(mut self, data: Value) -> Self {
        self.0.data = Some(data);
        self
    }

    /// Keeps the original error for `Debug`, [`source`](std::error::Error::source) and logs.
    #[must_use]
    pub fn with_source(mut self, source: impl StdError + Send + Sync + 'static) -> Self {
        self.0.source = Some(Arc::new(source));
        self
    }

    /// Like [`with_source`](Self::with_source) for an already shared error.
    #[must_use]
    pub fn with_shared_source(mut self, source: Arc<dyn StdError + Send + Sync>) -> Self {
        self.0.source = Some(source);
        self
    }

    /// An ordinary failure for any error: its source is kept, its text redacted (arbitrary errors
    /// can carry secrets). Chain [`reveal`](Self::reveal) to show the text.
    ///
    /// ```
    /// use tool_executor::ToolFailure;
    /// use tool_executor::failure::REDACTED_MESSAGE;
    ///
    /// let io = std::io::Error::other("disk full at /srv/secret");
    /// let failure = ToolFailure::from_error(io);
    /// assert_eq!(failure.message(), REDACTED_MESSAGE);
    /// assert_eq!(failure.withheld_message(), Some("disk full at /srv/secret"));
    /// assert_eq!(ToolFailure::from_error(std::io::Error::other("disk full")).reveal().message(), "disk full");
    /// ```
    #[must_use]
    pub fn from_error(error: impl StdError + Send + Sync + 'static) -> Self {
        Self::ordinary(error.to_string())
            .with_source(error)
            .redact()
    }

    /// Undoes [`redact`](Self::redact): peers see the original message again. Data dropped by
    /// the redaction stays dropped.
    #[must_use]
    pub fn reveal(mut self) -> Self {
        if let Some(original) = self.0.withheld.take() {
            self.0.message = original;
        }
        self
    }

    /// Replaces the message peers see with [`REDACTED_MESSAGE`]; the original text stays in
    /// [`withheld_message`](Self::withheld_message) and `Debug`. Structured data is dropped too.
    #[must_use]
    pub fn redact(mut self) -> Self {
        if self.0.withheld.is_none() {
            self.0.withheld = Some(std::mem::replace(
                &mut self.0.message,
                Cow::Borrowed(REDACTED_MESSAGE),
            ));
        }
        self.0.data = None;
        self
    }

    /// The message a model or peer may read (the fixed text for redacted failures).
    #[must_use]
    pub fn message(&self) -> &str {
        &self.0.message
    }

    /// The text a redaction withheld, for logs. `None` if the failure is not redacted.
    #[must_use]
    pub fn withheld_message(&self) -> Option<&str> {
        self.0.withheld.as_deref()
    }

    /// Whether the message was redacted.
    #[must_use]
    pub fn is_redacted(&self) -> bool {
        self.0.withheld.is_some()
    }

    /// Ordinary or terminal.
    #[must_use]
    pub const fn classification(&self) -> Classification {
        self.0.classification
    }

    /// Must not be retried.
    #[must_use]
    pub const fn is_terminal(&self) -> bool {
        matches!(self.0.classification, Classification::Terminal)
    }

    /// "Not mine": a fallback executor may serve the call. Never true for a terminal failure.
    #[must_use]
    pub const fn is_unhandled(&self) -> bool {
        self.0.unhandled && !self.is_terminal()
    }

    /// Whose fault it was.
    #[must_use]
    pub const fn kind(&self) -> FailureKind {
        self.0.kind
    }

    /// The stable machine-readable code.
    #[must_use]
    pub fn code(&self) -> &str {
        &self.0.code
    }

    /// How long to wait before retrying, if the tool said.
    #[must_use]
    pub const fn retry_after(&self) -> Option<Duration> {
        self.0.retry_after
    }

    /// Structured data attached to the failure.
    #[must_use]
    pub fn data(&self) -> Option<&Value> {
        self.0.data.as_ref()
    }
}

impl fmt::Display for ToolFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0.message)
    }
}

impl fmt::Debug for ToolFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = f.debug_struct("ToolFailure");
        s.field("message", &self.0.message)
            .field("classification", &self.0.classification)
            .field("kind", &self.0.kind)
            .field("code", &self.0.code);
        if self.0.unhandled {
            s.field("unhandled", &true);
        }
        if let Some(after) = self.0.retry_after {
            s.field("retry_after", &after);
        }
        if let Some(data) = &self.0.data {
            s.field("data", data);
        }
        if let Some(withheld) = &self.0.withheld {
            s.field("withheld", withheld);
        }
        if let Some(source) = &self.0.source {
            s.field("source", source);
        }
        s.finish()
    }
}

impl PartialEq for ToolFailure {
    /// Compares what a peer can observe plus the unhandled flag; sources are not compared.
    fn eq(&self, other: &Self) -> bool {
        self.0.message == other.0.message
            && self.0.classification == other.0.classification
            && self.0.kind == other.0.kind
            && self.0.code == other.0.code
            && self.0.retry_after == other.0.retry_after
            && self.0.data == other.0.data
            && self.0.unhandled == other.0.unhandled
            && self.0.withheld == other.0.withheld
    }
}

impl StdError for ToolFailure {
    fn source(&self) -> Option<&(dyn StdError + 'static)> {
        self.0
            .source
            .as_deref()
            .map(|e| e as &(dyn StdError + 'static))
    }
}

/// Plain text is an ordinary failure. It is never sniffed for "unknown tool".
impl From<String> for ToolFailure {
    fn from(message: String) -> Self {
        Self::ordinary(message)
    }
}

/// Plain text is an ordinary failure. It is never sniffed for "unknown tool".
impl From<&str> for ToolFailure {
    fn from(message: &str) -> Self {
        Self::ordinary(message.to_owned())
    }
}

/// A boxed error is ordinary and its text is redacted: arbitrary errors can carry secrets
/// (connection strings, paths). Use `ToolFailure::ordinary(e.to_string())` to show it.
impl From<Box<dyn StdError + Send + Sync>> for ToolFailure {
    fn from(error: Box<dyn StdError + Send + Sync>) -> Self {
        let message = error.to_string();
        Self::ordinary(message)
            .with_shared_source(Arc::from(error))
            .redact()
    }
}

/// `anyhow::Error` is ordinary and redacted, like a boxed error; its withheld message is the
/// whole context chain (`{:#}`), and [`reveal`](ToolFailure::reveal) shows it.
#[cfg(feature = "anyhow")]
#[cfg_attr(docsrs, doc(cfg(feature = "anyhow")))]
impl From<anyhow::Error> for ToolFailure {
    fn from(error: anyhow::Error) -> Self {
        let message = format!("{error:#}");
        let source: Box<dyn StdError + Send + Sync> = error.into();
        Self::ordinary(message)
            .with_shared_source(Arc::from(source))
            .redact()
    }
}

/// `ToolFailure` is already a failure; this lets `Result<T, ToolFailure>` tools use `?`.
impl From<std::convert::Infallible> for ToolFailure {
    fn from(never: std::convert::Infallible) -> Self {
        match never {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_are_ordinary_even_when_they_look_like_unknown_tool() {
        let failure = ToolFailure::from("unknown tool: read_file");
        assert!(!failure.is_unhandled());
        assert!(!failure.is_terminal());
    }

    #[test]
    fn terminal_is_never_unhandled() {
        let failure = ToolFailure::unhandled("x").with_classification(Classification::Terminal);
        assert!(!failure.is_unhandled());
        assert!(failure.is_terminal());
    }

    #[test]
    fn redaction_keeps_the_original_out_of_the_wire_form() {
        let failure = ToolFailure::ordinary("password=hunter2")
            .with_data(serde_json::json!({"password": "hunter2"}))
            .redact();
        let wire = serde_json::to_string(&failure).unwrap();
        assert!(!wire.contains("hunter2"), "{wire}");
        assert_eq!(failure.to_string(), REDACTED_MESSAGE);
        assert!(format!("{failure:?}").contains("hunter2"));
    }

    #[test]
    fn wire_form_round_trips() {
        let failure = ToolFailure::terminal("no such city")
            .with_code("unknown_city")
            .with_retry_after(Duration::from_millis(250))
            .with_data(serde_json::json!({"city": "Atlantis"}));
        let wire = serde_json::to_value(&failure).unwrap();
        assert_eq!(
            wire,
            serde_json::json!({
                "message": "no such city",
                "classification": "terminal",
                "kind": "tool",
                "code": "unknown_city",
                "retry_after_ms": 250,
                "data": {"city": "Atlantis"}
            })
        );
        let back: ToolFailure = serde_json::from_value(wire).unwrap();
        assert_eq!(back, failure);
    }
}
