//! A redacted failure's secret reaches no transport: not the retry decision, MCP, A2A, the
//! seed string layers, the serialized failure, a `ToolSet`'s string error or a streamed
//! `error` chunk. It stays where logs look: `Debug`, `source()`, `withheld_message()`.

use std::error::Error as _;

use tool_executor::ToolStreamChunk;
use tool_executor::failure::REDACTED_MESSAGE;
use tool_executor::failure::transport::{for_a2a, for_mcp, for_retry, for_seed, structured};
use tool_executor::prelude::*;

const SECRET: &str = "postgres://admin:hunter2@db.internal";

#[derive(Debug, thiserror::Error, ToolFailure)]
enum DbError {
    /// Redacted on the variant.
    #[error("cannot connect to {0}")]
    #[failure(redact, code = "db_unreachable", retry_after = "1s")]
    Connect(String),
    /// Redacted because it is internal.
    #[error("pool poisoned by {0}")]
    #[failure(kind = internal)]
    Poisoned(String),
    /// Redacted with the secret only in the source chain.
    #[error("query failed")]
    #[failure(terminal, redact)]
    Query(#[source] std::io::Error),
}

/// Every field is a secret by default.
#[derive(Debug, thiserror::Error, ToolFailure)]
#[failure(redact)]
enum Vault {
    #[error("vault said {0}")]
    Sealed(String),
}

fn leaky_errors() -> Vec<ToolFailure> {
    vec![
        DbError::Connect(SECRET.into()).into(),
        DbError::Poisoned(SECRET.into()).into(),
        DbError::Query(std::io::Error::other(SECRET)).into(),
        Vault::Sealed(SECRET.into()).into(),
        ToolFailure::from(Box::<dyn std::error::Error + Send + Sync>::from(SECRET)),
        ToolFailure::from_error(std::io::Error::other(SECRET)),
    ]
}

fn assert_clean(what: &str, text: &str) {
    assert!(
        !text.contains("hunter2"),
        "{what} leaked the secret: {text}"
    );
}

#[test]
fn no_transport_function_sees_the_secret() {
    for failure in leaky_errors() {
        assert!(failure.is_redacted());
        assert_eq!(failure.message(), REDACTED_MESSAGE);
        assert_clean("for_mcp", &format!("{:?}", for_mcp(&failure)));
        assert_clean("structured", &structured(&failure).to_string());
        assert_clean("for_a2a", &format!("{:?}", for_a2a(&failure)));
        assert_clean("for_retry", &format!("{:?}", for_retry(&failure)));
        assert_clean("for_seed", &for_seed(&failure));
        assert_clean("Display", &failure.to_string());
        assert_clean("serialized", &serde_json::to_string(&failure).unwrap());
        // Logs still have it.
        let debug = format!("{failure:?}");
        assert!(debug.contains("hunter2"), "{debug}");
        let mut chain = String::new();
        let mut next = failure.source();
        while let Some(error) = next {
            chain.push_str(&error.to_string());
            next = error.source();
        }
        assert!(chain.contains("hunter2"), "source chain: {chain}");
    }
}

#[test]
fn the_wire_form_round_trips_without_the_secret() {
    let failure = ToolFailure::from(DbError::Connect(SECRET.into()));
    let wire = serde_json::to_value(&failure).unwrap();
    assert_eq!(
        wire,
        json!({
            "message": REDACTED_MESSAGE,
            "classification": "ordinary",
            "kind": "tool",
            "code": "db_unreachable",
            "retry_after_ms": 1000
        })
    );
    let back: ToolFailure = serde_json::from_value(wire).unwrap();
    assert_eq!(back.message(), REDACTED_MESSAGE);
    assert_eq!(back.withheld_message(), None);
}

/// Connects to the database.
#[tool]
fn connect(which: u8) -> Result<(), DbError> {
    Err(match which {
        0 => DbError::Connect(SECRET.into()),
        1 => DbError::Poisoned(SECRET.into()),
        _ => DbError::Query(std::io::Error::other(SECRET)),
    })
}

#[tokio::test]
async fn tool_set_layers_do_not_leak() {
    let tools = toolset![connect];
    for which in 0..3 {
        let params = json!({"which": which});
        let error = tools.execute("connect", &params).await.unwrap_err();
        assert_eq!(error, REDACTED_MESSAGE);
        let error = tools
            .execute_with_action("connect", &params, "a1", Some(5_000))
            .await
            .unwrap_err();
        assert_eq!(error, REDACTED_MESSAGE);
        let failure = tools
            .execute_classified(
                "connect",
                &params,
                "a1",
                None,
                None,
                1,
                &std::collections::HashMap::new(),
                None,
            )
            .await
            .unwrap_err();
        assert_eq!(failure.to_string(), REDACTED_MESSAGE);
        assert!(format!("{failure:?}").contains("hunter2"), "kept for logs");
    }
}

#[tokio::test]
async fn streamed_error_chunks_do_not_leak() {
    let tools = toolset![connect];
    for which in 0..3 {
        let mut rx = tools
            .execute_stream("connect", &json!({"which": which}), "a1")
            .await
            .unwrap();
        let mut chunks = Vec::new();
        while let Some(chunk) = rx.recv().await {
            chunks.push(chunk);
        }
        let Some(ToolStreamChunk::Error { message, .. }) = chunks.last() else {
            panic!("the stream ends with an error chunk: {chunks:?}");
        };
        assert_eq!(message, REDACTED_MESSAGE);
        assert_clean("stream", &serde_json::to_string(&chunks).unwrap());
    }
}
