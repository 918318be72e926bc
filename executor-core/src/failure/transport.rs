//! One failure table for every transport: what a [`ToolFailure`] becomes for a retrying caller,
//! for MCP, for A2A and for the seed system's `Result<Value, String>` layers. Each column is one
//! function here ([`for_retry`], [`for_mcp`], [`for_a2a`], [`for_seed`]); the transports call
//! them rather than deciding on their own, so a failure means the same thing everywhere.
//!
//! | failure | retrying caller ([`for_retry`]) | MCP ([`for_mcp`]) | A2A ([`for_a2a`]) | seed string layers ([`for_seed`]) | car ([`for_car`]; in-process / daemon) |
//! |---|---|---|---|---|---|
//! | ordinary | [`Retry`](RetryDecision::Retry), after the hint | `isError: true` result | `Failed`, class `transient` | the message | ordinary: car retries |
//! | terminal | [`Stop`](RetryDecision::Stop) | `isError: true` result | `Failed`, class `invalid-request` | the message | terminal: car stops the proposal (a daemon also halts the session, see below) |
//! | unhandled | [`Fallback`](RetryDecision::Fallback) | JSON-RPC error `-32602` | `Failed`, class `invalid-request` | the message | in-process: unhandled, car runs its built-in tools / daemon: ordinary |
//! | kind `invalid_arguments` | [`Stop`](RetryDecision::Stop): the same arguments fail the same way | `isError: true` result | `Failed`, class `invalid-request` | the message | by class |
//! | kind `unknown_tool` | [`Fallback`](RetryDecision::Fallback) when unhandled ([`ToolFailure::unknown_tool`] is), else [`Stop`](RetryDecision::Stop) | JSON-RPC error `-32602` | `Failed`, class `invalid-request` | the message | by class and the unhandled flag |
//! | kind `timeout` | by class (ordinary: retry) | `isError: true` result | `Failed`, class `budget-exhausted` | the message | by class |
//! | kind `cancelled` | [`Stop`](RetryDecision::Stop): the caller no longer wants the result | `isError: true` result | `Canceled` | the message | by class |
//! | kind `internal` | by class (ordinary: retry) | `isError: true` result | `Failed`, class `internal` | the message | by class |
//! | redacted | as its class | [`REDACTED_MESSAGE`](crate::failure::REDACTED_MESSAGE), no `data` | [`REDACTED_MESSAGE`](crate::failure::REDACTED_MESSAGE) | [`REDACTED_MESSAGE`](crate::failure::REDACTED_MESSAGE) | [`REDACTED_MESSAGE`](crate::failure::REDACTED_MESSAGE), no `data` in the marker |
//!
//! In the A2A column, and for MCP's `unknown_tool`, a row matching the failure's kind wins over
//! the class rows; elsewhere the class and the unhandled flag decide.
//!
//! - **Retrying caller** ([`Runtime`](crate::runtime::Runtime)). Ordinary is retried (honouring
//!   [`retry_after`](ToolFailure::retry_after)), terminal stops, unhandled goes to the next
//!   executor. Three kinds stop whatever their class, because retrying them cannot succeed:
//!   invalid arguments (the same arguments fail the same way), an unknown tool that was handled
//!   (a peer's answer, not ours to reroute) and a cancellation. The unhandled flag is never
//!   serialized, so a failure relayed from a peer (even one of kind `unknown_tool`) cannot
//!   reroute a call to a fallback (the seed's car#3104).
//! - **MCP.** A failure of a tool that ran is a `tools/call` *result* with `isError: true`, so the
//!   model reads [`message`](ToolFailure::message) and can correct itself; its
//!   `structuredContent` is [`structured`]: `{"code", "kind", "classification",
//!   "retry_after_ms"?, "data"?}`. Only a call nothing served (unhandled, unknown tool) is a
//!   JSON-RPC error: MCP uses `-32602` (invalid params) for an unknown tool. A call the client
//!   itself cancelled with `notifications/cancelled` gets no response at all (MCP spec); this
//!   row is for cancellations the tool reports.
//! - **A2A.** A failure ends the task `Failed` with the failure class of the `a2a-rust`
//!   failure extension, or `Canceled`. A terminal failure is `invalid-request` ("never retry
//!   it"), not `internal` ("the agent broke, retry once"): that class is kept for
//!   `kind = internal` (panics, broken invariants). The code travels in the status metadata.
//! - **Streams.** A streamed call that fails ends with [`for_stream`]'s `error` chunk: the
//!   same message as the seed layers, plus the code, the class and the retry hint.
//! - **car.** car's failure is a message and a class (ordinary, terminal, unhandled), nothing
//!   else, so the details follow the message in a marker ([`for_car`], [`CAR_FAILURE_MARKER`]:
//!   `" [executor/failure {json}]"` with [`structured`]'s keys); [`from_car`] reads it back.
//!   In-process (`car_executor!`, feature `car-ir`) the class is car-ir's; for a daemon
//!   (`CarHost`, feature `car-ws`) the answer to `tools.execute` is a JSON-RPC error whose
//!   `data.terminal` is the terminal bit. car-server-core 0.60 never lets a host's failure fall
//!   through to its built-in tools (car#3104), so there unhandled is ordinary; and a terminal
//!   failure halts that daemon session until the host calls `session.clear_halt`.
//! - **Seed string layers.** `execute`, `execute_with_action` and friends return
//!   `Err(message)`: the same text, and for a redacted failure the same fixed text.
//!
//! Redaction is the only thing that changes the text: a redacted failure's original message,
//! data and source never reach any of these outputs (they stay in `Debug`,
//! [`source`](std::error::Error::source) and [`withheld_message`](ToolFailure::withheld_message),
//! for logs). Walking `source()` for a peer would undo that: transports must not.
//!
//! ```
//! use tool_executor::ToolFailure;
//! use tool_executor::failure::transport::{
//!     A2aFailureClass, A2aTerminal, McpOutcome, RetryDecision, for_a2a, for_mcp, for_retry, for_seed,
//! };
//! use std::time::Duration;
//!
//! let busy = ToolFailure::ordinary("busy").with_code("busy").with_retry_after(Duration::from_millis(200));
//! assert_eq!(for_retry(&busy), RetryDecision::Retry { after: Some(Duration::from_millis(200)) });
//! assert!(matches!(for_mcp(&busy), McpOutcome::ToolError { text, .. } if text == "busy"));
//! assert_eq!(for_a2a(&busy).terminal, A2aTerminal::Failed(A2aFailureClass::Transient));
//! assert_eq!(for_seed(&busy), "busy");
//!
//! let gone = ToolFailure::unknown_tool("nope");
//! assert_eq!(for_retry(&gone), RetryDecision::Fallback);
//! assert!(matches!(for_mcp(&gone), McpOutcome::ProtocolError { code: -32602, .. }));
//! ```

use std::time::Duration;

use serde::Deserialize as _;
use serde_json::Value;

use super::{Classification, FailureKind, ToolFailure};
use crate::tool::ToolStreamChunk;

/// What a retrying caller should do after a failed attempt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RetryDecision {
    /// Try again, after the hint if the tool gave one.
    Retry {
        /// The tool's retry hint.
        after: Option<Duration>,
    },
    /// Do not retry: the failure is terminal.
    Stop,
    /// The executor did not serve the call; a fallback executor may.
    Fallback,
}

/// The retrying caller's row of the table.
#[must_use]
pub fn for_retry(failure: &ToolFailure) -> RetryDecision {
    let hopeless = matches!(
        failure.kind(),
        FailureKind::InvalidArguments | FailureKind::UnknownTool | FailureKind::Cancelled
    );
    if failure.is_unhandled() {
        RetryDecision::Fallback
    } else if failure.is_terminal() || hopeless {
        RetryDecision::Stop
    } else {
        RetryDecision::Retry {
            after: failure.retry_after(),
        }
    }
}

/// How a failure reaches an MCP client.
#[derive(Debug, Clone, PartialEq)]
pub enum McpOutcome {
    /// A `tools/call` result with `isError: true`: the model reads `text` and can act on it.
    ToolError {
        /// The text block (the failure's message; the fixed text when redacted).
        text: String,
        /// The failure's details, [`structured`]: `{"code", "kind", "classification",
        /// "retry_after_ms"?, "data"?}`. MCP carries them in the result's `_meta` and in a
        /// second text block, never in `structuredContent` (that must match the tool's output
        /// schema, which describes successes).
        details: Value,
    },
    /// A JSON-RPC error: the request itself was wrong (unknown tool).
    ProtocolError {
        /// The JSON-RPC error code.
        code: i32,
        /// The error message.
        message: String,
    },
}

/// JSON-RPC "invalid params", which MCP uses for an unknown tool.
pub const JSONRPC_INVALID_PARAMS: i32 = -32602;

/// The MCP row of the table.
#[must_use]
pub fn for_mcp(failure: &ToolFailure) -> McpOutcome {
    if failure.is_unhandled() || failure.kind() == FailureKind::UnknownTool {
        return McpOutcome::ProtocolError {
            code: JSONRPC_INVALID_PARAMS,
            message: failure.message().to_owned(),
        };
    }
    McpOutcome::ToolError {
        text: failure.message().to_owned(),
        details: structured(failure),
    }
}

/// The machine-readable part of a failure, for MCP's `_meta` (see [`McpOutcome::ToolError`])
/// and A2A's status metadata: `{"code", "kind", "classification", "retry_after_ms"?, "data"?}`. Never the
/// message, never the source; a redacted failure has no data.
///
/// ```
/// use tool_executor::ToolFailure;
/// use tool_executor::failure::transport::structured;
/// use serde_json::json;
///
/// let failure = ToolFailure::terminal("no such city").with_code("unknown_city").with_data(json!("Atlantis"));
/// assert_eq!(
///     structured(&failure),
///     json!({"code": "unknown_city", "kind": "tool", "classification": "terminal", "data": "Atlantis"})
/// );
/// ```
#[must_use]
pub fn structured(failure: &ToolFailure) -> Value {
    let mut structured = serde_json::Map::new();
    structured.insert("code".into(), failure.code().into());
    structured.insert("kind".into(), failure.kind().as_str().into());
    let class = match failure.classification() {
        Classification::Ordinary => "ordinary",
        Classification::Terminal => "terminal",
    };
    structured.insert("classification".into(), class.into());
    if let Some(after) = failure.retry_after() {
        structured.insert(
            "retry_after_ms".into(),
            u64::try_from(after.as_millis()).unwrap_or(u64::MAX).into(),
        );
    }
    if let Some(data) = failure.data() {
        structured.insert("data".into(), data.clone());
    }
    Value::Object(structured)
}

/// Which kinds [`restore`] takes from a [`structured`] object.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KindPolicy {
    /// Every kind: the object comes from a runtime in the same trust domain (car's IR).
    Any,
    /// Every kind but `unknown_tool`, which becomes `tool`: the object relays a peer's
    /// failure, and a peer's words must never make a call look unserved, which would send it
    /// to a fallback (car#3104).
    Relayed,
}

/// `failure` with the fields of a [`structured`] object put back: `code`, `kind` (as
/// `kinds` allows; an unknown kind is `tool`), `retry_after_ms` and `data`. Fields that are
/// missing or of the wrong type leave `failure` as it is. The classification is the caller's
/// to decide, from what it trusts.
///
/// ```
/// use std::time::Duration;
/// use tool_executor::{FailureKind, ToolFailure};
/// use tool_executor::failure::transport::{KindPolicy, restore, structured};
/// use serde_json::json;
///
/// let sent = ToolFailure::ordinary("busy")
///     .with_code("rate_limited")
///     .with_retry_after(Duration::from_millis(250))
///     .with_data(json!({"queue": 3}));
/// let back = restore(ToolFailure::ordinary("busy"), &structured(&sent), KindPolicy::Relayed);
/// assert_eq!(back.code(), "rate_limited");
/// assert_eq!(back.retry_after(), Some(Duration::from_millis(250)));
/// assert_eq!(back.data(), Some(&json!({"queue": 3})));
///
/// let unserved = structured(&ToolFailure::unknown_tool("nope"));
/// let relayed = restore(ToolFailure::ordinary("nope"), &unserved, KindPolicy::Relayed);
/// assert_eq!(relayed.kind(), FailureKind::Tool);
/// let local = restore(ToolFailure::ordinary("nope"), &unserved, KindPolicy::Any);
/// assert_eq!(local.kind(), FailureKind::UnknownTool);
/// ```
#[must_use]
pub fn restore(mut failure: ToolFailure, structured: &Value, kinds: KindPolicy) -> ToolFailure {
    if let Some(code) = structured.get("code").and_then(Value::as_str) {
        failure = failure.with_code(code.to_owned());
    }
    if let Some(kind) = structured.get("kind") {
        let kind = FailureKind::deserialize(kind).unwrap_or_default();
        failure = failure.with_kind(match (kind, kinds) {
            (FailureKind::UnknownTool, KindPolicy::Relayed) => FailureKind::Tool,
            (kind, _) => kind,
        });
    }
    if let Some(ms) = structured.get("retry_after_ms").and_then(Value::as_u64) {
        failure = failure.with_retry_after(Duration::from_millis(ms));
    }
    match structured.get("data") {
        Some(data) => failure.with_data(data.clone()),
        None => failure,
    }
}

/// A2A's failure classes (`a2a_protocol_types::failure::FailureClass`, the `a2a-rust` failure
/// extension), named here so this module needs no A2A dependency.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum A2aFailureClass {
    /// Never retry the identical request: bad arguments, an unknown tool, a terminal failure.
    InvalidRequest,
    /// Worth retrying: an ordinary failure.
    Transient,
    /// Refused by policy; a person should see it. Nothing in the table picks it today.
    PolicyRefusal,
    /// A deadline or budget was hit: a timeout.
    BudgetExhausted,
    /// The tool broke: a panic or a broken invariant (`kind = internal`).
    Internal,
}

impl A2aFailureClass {
    /// The wire token (`a2a_protocol_types::failure::FailureClass::as_str`).
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::InvalidRequest => "invalid-request",
            Self::Transient => "transient",
            Self::PolicyRefusal => "policy-refusal",
            Self::BudgetExhausted => "budget-exhausted",
            Self::Internal => "internal",
        }
    }
}

/// The terminal task state an A2A failure ends in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum A2aTerminal {
    /// `TASK_STATE_FAILED` with a failure class.
    Failed(A2aFailureClass),
    /// `TASK_STATE_CANCELED`.
    Canceled,
}

/// How a failure ends an A2A task.
#[derive(Debug, Clone, PartialEq)]
pub struct A2aOutcome {
    /// The terminal state.
    pub terminal: A2aTerminal,
    /// The status message text.
    pub message: String,
    /// The failure's code, for the status metadata.
    pub code: String,
    /// The failure's structured data, if any (never for a redacted failure).
    pub data: Option<Value>,
}

/// The A2A row of the table.
#[must_use]
pub fn for_a2a(failure: &ToolFailure) -> A2aOutcome {
    let terminal = match failure.kind() {
        FailureKind::Cancelled => A2aTerminal::Canceled,
        FailureKind::InvalidArguments | FailureKind::UnknownTool => {
            A2aTerminal::Failed(A2aFailureClass::InvalidRequest)
        }
        FailureKind::Timeout => A2aTerminal::Failed(A2aFailureClass::BudgetExhausted),
        FailureKind::Internal => A2aTerminal::Failed(A2aFailureClass::Internal),
        _ if failure.is_unhandled() || failure.is_terminal() => {
            A2aTerminal::Failed(A2aFailureClass::InvalidRequest)
        }
        _ => A2aTerminal::Failed(A2aFailureClass::Transient),
    };
    A2aOutcome {
        terminal,
        message: failure.message().to_owned(),
        code: failure.code().to_owned(),
        data: failure.data().cloned(),
    }
}

/// What opens the details car's messages carry for us: a failure's message (or an `error`
/// chunk's) is followed by `" [executor/failure {json}]"`, one compact JSON object (keys sorted)
/// and a closing bracket at the very end. The keys are [`structured`]'s; an `error` chunk's
/// marker has `code`, `classification` and `retry_after_ms`.
pub const CAR_FAILURE_MARKER: &str = " [executor/failure ";

/// How a failure reaches car: the message with its marker, and car's class.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CarOutcome {
    /// The failure's message, followed by [`CAR_FAILURE_MARKER`] and the details when it has
    /// any beyond message and class (code other than `tool_error`, kind other than `tool`, a
    /// retry hint or data).
    pub message: String,
    /// car's terminal bit: car stops the proposal.
    pub terminal: bool,
    /// car's unhandled class: car-engine runs its built-in tools. A daemon has no such answer
    /// for a host; there it is an ordinary failure.
    pub unhandled: bool,
}

/// The car row of the table.
///
/// ```
/// use std::time::Duration;
/// use tool_executor::ToolFailure;
/// use tool_executor::failure::transport::{for_car, from_car};
///
/// let busy = ToolFailure::ordinary("busy").with_code("busy").with_retry_after(Duration::from_millis(200));
/// let car = for_car(&busy);
/// assert_eq!(
///     car.message,
///     r#"busy [executor/failure {"classification":"ordinary","code":"busy","kind":"tool","retry_after_ms":200}]"#,
/// );
/// assert!(!car.terminal && !car.unhandled);
/// assert_eq!(from_car(&car.message, car.terminal, car.unhandled), busy);
/// assert_eq!(for_car(&ToolFailure::terminal("no")).message, "no");
/// ```
#[must_use]
pub fn for_car(failure: &ToolFailure) -> CarOutcome {
    let plain = failure.code() == "tool_error"
        && failure.kind() == FailureKind::Tool
        && failure.retry_after().is_none()
        && failure.data().is_none();
    let message = if plain {
        failure.message().to_owned()
    } else {
        let details = structured(failure);
        with_car_marker(
            failure.message(),
            details.as_object().unwrap_or(&serde_json::Map::new()),
        )
    };
    CarOutcome {
        message,
        terminal: failure.is_terminal() && !failure.is_unhandled(),
        unhandled: failure.is_unhandled(),
    }
}

/// The car row read backwards: a failure car reported with `message` and its class. The
/// marker's details (code, kind, retry hint, data) are restored and the marker removed; the
/// class always comes from car's own fields, never from the marker, so text cannot make a
/// failure terminal or unhandled.
#[must_use]
pub fn from_car(message: &str, terminal: bool, unhandled: bool) -> ToolFailure {
    let (text, details) = split_car_marker(message);
    let text = text.to_owned();
    let ours = if unhandled {
        ToolFailure::unhandled(text)
    } else if terminal {
        ToolFailure::terminal(text)
    } else {
        ToolFailure::ordinary(text)
    };
    match details {
        Some(details) => restore(ours, &Value::Object(details), KindPolicy::Any),
        None => ours,
    }
}

/// `message` followed by the marker holding `details`, keys sorted whatever `serde_json`'s
/// `preserve_order` feature says, so the text is the same in every build.
#[must_use]
pub fn with_car_marker(message: &str, details: &serde_json::Map<String, Value>) -> String {
    let sorted: std::collections::BTreeMap<&String, &Value> = details.iter().collect();
    let json = serde_json::to_string(&sorted).unwrap_or_default();
    format!("{message}{CAR_FAILURE_MARKER}{json}]")
}

/// The message before the marker and the marker's details, or the whole text and `None`
/// when it does not end in a well-formed marker. The last marker that parses wins, so a
/// message (or data) that quotes the marker text cannot hide the real one.
#[must_use]
pub fn split_car_marker(text: &str) -> (&str, Option<serde_json::Map<String, Value>>) {
    for (at, _) in text.rmatch_indices(CAR_FAILURE_MARKER) {
        let json = &text[at + CAR_FAILURE_MARKER.len()..];
        let mut values =
            serde_json::Deserializer::from_str(json).into_iter::<serde_json::Map<String, Value>>();
        if let Some(Ok(details)) = values.next()
            && &json[values.byte_offset()..] == "]"
        {
            return (&text[..at], Some(details));
        }
    }
    (text, None)
}

/// The seed's string layers: the message a model may read (what `Display` prints).
#[must_use]
pub fn for_seed(failure: &ToolFailure) -> String {
    failure.message().to_owned()
}

/// The terminal chunk of a streamed call that failed: the message (redacted stays redacted),
/// its code, class and retry hint, so a streaming caller decides as [`for_retry`] would.
///
/// ```
/// use tool_executor::ToolFailure;
/// use tool_executor::failure::transport::for_stream;
/// use std::time::Duration;
///
/// let busy = ToolFailure::ordinary("busy").with_code("busy").with_retry_after(Duration::from_millis(250));
/// assert_eq!(
///     serde_json::to_value(for_stream(&busy)).unwrap(),
///     serde_json::json!({"kind": "error", "message": "busy", "code": "busy",
///                        "classification": "ordinary", "retry_after_ms": 250}),
/// );
/// ```
#[must_use]
pub fn for_stream(failure: &ToolFailure) -> ToolStreamChunk {
    ToolStreamChunk::Error {
        message: failure.message().to_owned(),
        code: Some(failure.code().to_owned()),
        classification: Some(failure.classification()),
        retry_after_ms: failure
            .retry_after()
            .map(|d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX)),
    }
}

impl A2aFailureClass {
    /// Reads a wire token; `None` for one this table does not know.
    #[must_use]
    pub fn from_wire(token: &str) -> Option<Self> {
        [
            Self::InvalidRequest,
            Self::Transient,
            Self::PolicyRefusal,
            Self::BudgetExhausted,
            Self::Internal,
        ]
        .into_iter()
        .find(|class| class.as_str() == token)
    }
}

/// The A2A row read backwards: how a task a peer ended `failed`, `rejected` or `canceled`
/// comes back to a caller of `tool` (`A2aToolExecutor`). `outcome` is what the peer said: the
/// class (`Transient` when it gave none), the status message, the code (`a2a_task_failed`
/// when it gave none) and the data.
///
/// | peer's end | failure |
/// |---|---|
/// | `Canceled` | [`ToolFailure::cancelled`] |
/// | `invalid-request`, code `invalid_arguments` | [`ToolFailure::invalid_arguments`] (ordinary, kind `invalid_arguments`) |
/// | `invalid-request`, code `unknown_tool` | terminal, kind `unknown_tool` (handled: the peer answered) |
/// | `invalid-request`, `policy-refusal`, other codes | terminal |
/// | `transient` | ordinary |
/// | `budget-exhausted` | ordinary, kind `timeout` |
/// | `internal` | ordinary, kind `internal` |
///
/// A relayed failure is never unhandled, whatever the peer wrote: a peer's text cannot reroute
/// a call to a fallback (car#3104). For a failure of ours, `from_a2a(for_a2a(f))` keeps the
/// message, code, class, kind (but `tool` for an ordinary or terminal tool failure) and data.
///
/// ```
/// use tool_executor::ToolFailure;
/// use tool_executor::failure::transport::{for_a2a, for_retry, from_a2a, RetryDecision};
/// use serde_json::json;
///
/// let failure = ToolFailure::terminal("unknown city `Atlantis`")
///     .with_code("unknown_city")
///     .with_data(json!({"city": "Atlantis"}));
/// let back = from_a2a("get_weather", for_a2a(&failure));
/// assert_eq!(back.message(), failure.message());
/// assert_eq!(back.code(), "unknown_city");
/// assert_eq!(back.data(), failure.data());
/// assert_eq!(for_retry(&back), RetryDecision::Stop);
/// ```
#[must_use]
pub fn from_a2a(tool: &str, outcome: A2aOutcome) -> ToolFailure {
    let A2aOutcome {
        terminal,
        message,
        code,
        data,
    } = outcome;
    let class = match terminal {
        A2aTerminal::Canceled => return ToolFailure::cancelled(tool),
        A2aTerminal::Failed(class) => class,
    };
    let mut failure = match (class, code.as_str()) {
        (A2aFailureClass::InvalidRequest, "invalid_arguments") => {
            ToolFailure::invalid_arguments(message)
        }
        (A2aFailureClass::InvalidRequest, "unknown_tool") => {
            ToolFailure::terminal(message).with_kind(FailureKind::UnknownTool)
        }
        (A2aFailureClass::InvalidRequest | A2aFailureClass::PolicyRefusal, _) => {
            ToolFailure::terminal(message)
        }
        (A2aFailureClass::Transient, _) => ToolFailure::ordinary(message),
        (A2aFailureClass::BudgetExhausted, _) => {
            ToolFailure::ordinary(message).with_kind(FailureKind::Timeout)
        }
        (A2aFailureClass::Internal, _) => {
            ToolFailure::ordinary(message).with_kind(FailureKind::Internal)
        }
    };
    failure = failure.with_code(code);
    if let Some(data) = data {
        failure = failure.with_data(data);
    }
    failure
}
