//! The failure table, row by row: each failure against all four transport functions, and the
//! derive's output through the same table.

use std::time::Duration;

use serde_json::{Value, json};
use tool_executor::failure::REDACTED_MESSAGE;
use tool_executor::failure::transport::{
    A2aFailureClass, A2aOutcome, A2aTerminal, JSONRPC_INVALID_PARAMS, McpOutcome, RetryDecision,
    for_a2a, for_mcp, for_retry, for_seed, structured,
};
use tool_executor::{Classification, FailureKind, ToolFailure};

use A2aFailureClass::{BudgetExhausted, Internal, InvalidRequest, Transient};

enum Mcp {
    Tool(Value),
    Protocol,
}

struct Row {
    name: &'static str,
    failure: ToolFailure,
    retry: RetryDecision,
    mcp: Mcp,
    a2a: A2aTerminal,
    text: &'static str,
}

fn retry(after: Option<u64>) -> RetryDecision {
    RetryDecision::Retry {
        after: after.map(Duration::from_millis),
    }
}

#[allow(clippy::too_many_lines)] // one entry per row of the documented table, kept together
fn rows() -> Vec<Row> {
    vec![
        Row {
            name: "ordinary",
            failure: ToolFailure::ordinary("flaky").with_code("flaky"),
            retry: retry(None),
            mcp: Mcp::Tool(json!({"code": "flaky", "kind": "tool", "classification": "ordinary"})),
            a2a: A2aTerminal::Failed(Transient),
            text: "flaky",
        },
        Row {
            name: "ordinary with a hint and data",
            failure: ToolFailure::ordinary("busy")
                .with_code("busy")
                .with_retry_after(Duration::from_millis(1500))
                .with_data(json!({"queue": 3})),
            retry: retry(Some(1500)),
            mcp: Mcp::Tool(json!({
                "code": "busy", "kind": "tool", "classification": "ordinary",
                "retry_after_ms": 1500, "data": {"queue": 3}
            })),
            a2a: A2aTerminal::Failed(Transient),
            text: "busy",
        },
        Row {
            name: "terminal",
            failure: ToolFailure::terminal("no such city").with_code("unknown_city"),
            retry: RetryDecision::Stop,
            mcp: Mcp::Tool(
                json!({"code": "unknown_city", "kind": "tool", "classification": "terminal"}),
            ),
            a2a: A2aTerminal::Failed(InvalidRequest),
            text: "no such city",
        },
        Row {
            name: "unhandled",
            failure: ToolFailure::unhandled("not mine"),
            retry: RetryDecision::Fallback,
            mcp: Mcp::Protocol,
            a2a: A2aTerminal::Failed(InvalidRequest),
            text: "not mine",
        },
        Row {
            name: "invalid arguments",
            failure: ToolFailure::invalid_arguments("a: expected i64"),
            retry: RetryDecision::Stop,
            mcp: Mcp::Tool(
                json!({"code": "invalid_arguments", "kind": "invalid_arguments", "classification": "ordinary"}),
            ),
            a2a: A2aTerminal::Failed(InvalidRequest),
            text: "a: expected i64",
        },
        Row {
            name: "unknown tool",
            failure: ToolFailure::unknown_tool("nope"),
            retry: RetryDecision::Fallback,
            mcp: Mcp::Protocol,
            a2a: A2aTerminal::Failed(InvalidRequest),
            text: "unknown tool `nope`",
        },
        Row {
            name: "timeout",
            failure: ToolFailure::timeout("slow", Duration::from_millis(50)),
            retry: retry(None),
            mcp: Mcp::Tool(
                json!({"code": "timeout", "kind": "timeout", "classification": "ordinary"}),
            ),
            a2a: A2aTerminal::Failed(BudgetExhausted),
            text: "tool `slow` timed out after 50ms",
        },
        Row {
            name: "cancelled",
            failure: ToolFailure::cancelled("slow"),
            retry: RetryDecision::Stop,
            mcp: Mcp::Tool(
                json!({"code": "cancelled", "kind": "cancelled", "classification": "terminal"}),
            ),
            a2a: A2aTerminal::Canceled,
            text: "tool `slow` was cancelled",
        },
        Row {
            name: "internal",
            failure: ToolFailure::internal("index out of bounds"),
            retry: retry(None),
            mcp: Mcp::Tool(
                json!({"code": "internal", "kind": "internal", "classification": "ordinary"}),
            ),
            a2a: A2aTerminal::Failed(Internal),
            text: REDACTED_MESSAGE,
        },
        Row {
            name: "terminal internal",
            failure: ToolFailure::internal("broken").with_classification(Classification::Terminal),
            retry: RetryDecision::Stop,
            mcp: Mcp::Tool(
                json!({"code": "internal", "kind": "internal", "classification": "terminal"}),
            ),
            a2a: A2aTerminal::Failed(Internal),
            text: REDACTED_MESSAGE,
        },
        Row {
            name: "redacted terminal with data",
            failure: ToolFailure::terminal("token=abc")
                .with_code("auth")
                .with_data(json!({"token": "abc"}))
                .redact(),
            retry: RetryDecision::Stop,
            mcp: Mcp::Tool(json!({"code": "auth", "kind": "tool", "classification": "terminal"})),
            a2a: A2aTerminal::Failed(InvalidRequest),
            text: REDACTED_MESSAGE,
        },
        Row {
            name: "unhandled timeout: the kind wins for A2A, the flag for retry and MCP",
            failure: ToolFailure::unhandled("later").with_kind(FailureKind::Timeout),
            retry: RetryDecision::Fallback,
            mcp: Mcp::Protocol,
            a2a: A2aTerminal::Failed(BudgetExhausted),
            text: "later",
        },
    ]
}

#[test]
fn every_row_of_the_table() {
    for row in rows() {
        let name = row.name;
        let failure = &row.failure;
        assert_eq!(for_retry(failure), row.retry, "{name}: retry");
        match (for_mcp(failure), &row.mcp) {
            (McpOutcome::ToolError { text, details: got }, Mcp::Tool(expected)) => {
                assert_eq!(text, row.text, "{name}: mcp text");
                assert_eq!(&got, expected, "{name}: mcp structured");
                assert_eq!(&structured(failure), expected, "{name}: structured");
            }
            (McpOutcome::ProtocolError { code, message }, Mcp::Protocol) => {
                assert_eq!(code, JSONRPC_INVALID_PARAMS, "{name}: mcp code");
                assert_eq!(message, row.text, "{name}: mcp message");
            }
            (got, _) => panic!("{name}: unexpected MCP outcome {got:?}"),
        }
        assert_eq!(
            for_a2a(failure),
            A2aOutcome {
                terminal: row.a2a,
                message: row.text.to_owned(),
                code: failure.code().to_owned(),
                data: failure.data().cloned(),
            },
            "{name}: a2a"
        );
        assert_eq!(for_seed(failure), row.text, "{name}: seed");
        assert_eq!(
            for_seed(failure),
            failure.to_string(),
            "{name}: seed is the Display"
        );
    }
}

#[test]
fn a2a_wire_tokens_match_the_a2a_rust_extension() {
    let tokens: Vec<&str> = [
        InvalidRequest,
        Transient,
        A2aFailureClass::PolicyRefusal,
        BudgetExhausted,
        Internal,
    ]
    .iter()
    .map(|c| c.as_str())
    .collect();
    assert_eq!(
        tokens,
        [
            "invalid-request",
            "transient",
            "policy-refusal",
            "budget-exhausted",
            "internal"
        ]
    );
}

/// A retry hint on a terminal failure is carried but not acted on.
#[test]
fn terminal_ignores_its_hint() {
    let failure = ToolFailure::terminal("stop").with_retry_after(Duration::from_secs(1));
    assert_eq!(for_retry(&failure), RetryDecision::Stop);
}

/// One derived enum, through every column.
#[derive(Debug, thiserror::Error, tool_executor::ToolFailure)]
enum Weather {
    #[error("unknown city `{city}`")]
    #[failure(terminal, data)]
    UnknownCity { city: String },
    #[error("weather service unavailable")]
    #[failure(retry_after = "200ms")]
    Unavailable,
    #[error("upstream took too long")]
    #[failure(kind = timeout)]
    Slow,
    #[error("credentials rejected: {0}")]
    #[failure(terminal, redact, code = "auth")]
    Auth(String),
    #[error("not a weather question")]
    #[failure(unhandled)]
    NotMine,
}

#[test]
fn a_derived_enum_through_the_table() {
    let unknown = ToolFailure::from(Weather::UnknownCity {
        city: "Atlantis".into(),
    });
    assert_eq!(for_retry(&unknown), RetryDecision::Stop);
    assert_eq!(
        for_mcp(&unknown),
        McpOutcome::ToolError {
            text: "unknown city `Atlantis`".into(),
            details: json!({
                "code": "unknown_city", "kind": "tool", "classification": "terminal",
                "data": {"city": "Atlantis"}
            }),
        }
    );
    assert_eq!(
        for_a2a(&unknown).terminal,
        A2aTerminal::Failed(InvalidRequest)
    );
    assert_eq!(for_a2a(&unknown).code, "unknown_city");

    let unavailable = ToolFailure::from(Weather::Unavailable);
    assert_eq!(for_retry(&unavailable), retry(Some(200)));
    assert_eq!(
        for_a2a(&unavailable).terminal,
        A2aTerminal::Failed(Transient)
    );

    let slow = ToolFailure::from(Weather::Slow);
    assert_eq!(for_retry(&slow), retry(None));
    assert_eq!(
        for_a2a(&slow).terminal,
        A2aTerminal::Failed(BudgetExhausted)
    );

    let auth = ToolFailure::from(Weather::Auth("key=abc".into()));
    assert_eq!(for_seed(&auth), REDACTED_MESSAGE);
    assert_eq!(for_a2a(&auth).message, REDACTED_MESSAGE);

    let not_mine = ToolFailure::from(Weather::NotMine);
    assert_eq!(for_retry(&not_mine), RetryDecision::Fallback);
    assert_eq!(
        for_mcp(&not_mine),
        McpOutcome::ProtocolError {
            code: JSONRPC_INVALID_PARAMS,
            message: "not a weather question".into()
        }
    );
}

/// The unhandled flag does not travel: a peer's "unknown tool", read off the wire, cannot pick
/// a fallback, and the retry loop stops on it (the peer will not grow the tool on a retry).
#[test]
fn a_relayed_unknown_tool_does_not_fall_back() {
    let local = ToolFailure::unknown_tool("read_file");
    assert_eq!(for_retry(&local), RetryDecision::Fallback);
    let relayed: ToolFailure =
        serde_json::from_value(serde_json::to_value(&local).unwrap()).unwrap();
    assert_eq!(relayed.kind(), FailureKind::UnknownTool);
    assert!(!relayed.is_unhandled());
    assert_eq!(for_retry(&relayed), RetryDecision::Stop);
    // MCP still answers with a protocol error: the kind says nothing served the name.
    assert!(matches!(
        for_mcp(&relayed),
        McpOutcome::ProtocolError { .. }
    ));
}
