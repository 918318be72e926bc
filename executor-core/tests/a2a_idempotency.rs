//! A retried A2A send reaches a `ToolAgent`'s tool with the same idempotency key, so a tool
//! with a side effect acts once, whichever replica the retry lands on.
#![cfg(feature = "a2a")]

mod a2a_support;

use std::sync::Mutex;

use a2a_support::rpc;
use serde_json::{Value, json};
use tool_executor::agent::{AgentServer, RunningAgent, ToolAgent};
use tool_executor::prelude::*;

/// What `charge` did, by idempotency key: the side effect a retry must not repeat.
static LEDGER: Mutex<Vec<(String, i64)>> = Mutex::new(Vec::new());

fn charges_under(key: &str) -> Vec<i64> {
    LEDGER
        .lock()
        .unwrap()
        .iter()
        .filter(|(k, _)| k == key)
        .map(|(_, amount)| *amount)
        .collect()
}

/// Charges `amount` once per idempotency key.
#[tool]
#[allow(clippy::result_large_err)] // a tool returns `ToolFailure` as is
fn charge(amount: i64, ctx: &ToolContext) -> Result<String, ToolFailure> {
    let key = ctx
        .idempotency_key()
        .ok_or_else(|| ToolFailure::terminal("the call carries no idempotency key"))?;
    let mut ledger = LEDGER.lock().unwrap();
    if ledger.iter().any(|(k, _)| k == key) {
        return Ok(format!("already charged under {key}"));
    }
    ledger.push((key.to_owned(), amount));
    Ok(format!("charged {amount} under {key}"))
}

/// One replica: the same tools, its own in-memory task store.
async fn replica() -> RunningAgent {
    AgentServer::bind("127.0.0.1:0", ToolAgent::new(toolset![charge]))
        .await
        .expect("bind")
        .spawn()
}

fn charge_message(message_id: &str, metadata: Option<Value>) -> Value {
    let mut message = json!({
        "messageId": message_id,
        "role": "ROLE_USER",
        "parts": [{"data": {"tool": "charge", "arguments": {"amount": 5}}}],
    });
    if let Some(metadata) = metadata {
        message["metadata"] = metadata;
    }
    json!({ "message": message })
}

/// The `result` artifact of a completed send.
async fn send(agent: &RunningAgent, params: Value) -> Value {
    let task = rpc(agent.local_addr(), "SendMessage", params).await["task"].clone();
    assert_eq!(task["status"]["state"], "TASK_STATE_COMPLETED", "{task}");
    task["artifacts"][0]["parts"][0]["data"].clone()
}

#[tokio::test]
async fn a_retried_send_reaches_the_tool_with_the_message_id_as_its_key() {
    let (a, b) = (replica().await, replica().await);
    let first = send(&a, charge_message("retry-me-1", None)).await;
    assert_eq!(first, json!("charged 5 under retry-me-1"));
    // The client did not hear back and resends the identical message, here to another
    // replica that has never seen it: the tool recognises the key.
    let retried = send(&b, charge_message("retry-me-1", None)).await;
    assert_eq!(retried, json!("already charged under retry-me-1"));
    let again = send(&a, charge_message("retry-me-1", None)).await;
    assert_eq!(again, json!("already charged under retry-me-1"));
    assert_eq!(charges_under("retry-me-1"), [5]);
    // A distinct send has a fresh message id, and is charged.
    let other = send(&a, charge_message("retry-me-2", None)).await;
    assert_eq!(other, json!("charged 5 under retry-me-2"));
}

#[tokio::test]
async fn a_client_idempotency_key_is_the_key_the_tool_sees() {
    let agent = replica().await;
    let keyed = |message_id: &str| {
        charge_message(
            message_id,
            Some(json!({ "a2a-rust.com/idempotency-key": "order-77-3f9c2a1e5b7d" })),
        )
    };
    let first = send(&agent, keyed("keyed-1")).await;
    assert_eq!(first, json!("charged 5 under order-77-3f9c2a1e5b7d"));
    // The same message again: the server itself answers with the first task.
    let replayed = send(&agent, keyed("keyed-1")).await;
    assert_eq!(replayed, json!("charged 5 under order-77-3f9c2a1e5b7d"));
    assert_eq!(charges_under("order-77-3f9c2a1e5b7d"), [5]);
    assert!(charges_under("keyed-1").is_empty());
}
