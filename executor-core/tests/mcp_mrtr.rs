//! MCP 2026-07-28 questions (MRTR) over stateless streamable HTTP, with raw HTTP so every field
//! is visible: a tool that asks answers `input_required` with the question and a sealed
//! `requestState`; the retry (new id, `inputResponses`, the exact state) re-enters the tool
//! with the answer, on either of two replicas sharing the key; tampered, foreign, expired and
//! replayed states are refused with -32602.
#![cfg(all(feature = "mcp-http", feature = "request-state"))]

mod http_wire;

use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use http_wire::{Body, Conn};
use serde_json::{Value, json};
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;
use tool_executor::elicit::{Answer, Form, StateKeys};
use tool_executor::mcp::McpServer;
use tool_executor::prelude::*;

/// Times `delete_note`'s body ran past its question: the side effect after asking.
static DELETED: AtomicUsize = AtomicUsize::new(0);

#[derive(Form)]
struct Reason {
    /// Why the note goes.
    #[form(min_length = 3)]
    reason: String,
}

/// Deletes a note once the user confirms, then asks why.
#[tool]
async fn delete_note(ctx: &ToolContext, id: u32) -> Result<String, ToolFailure> {
    if !ctx.confirm(format!("Delete note {id}?")).await? {
        return Ok("kept".into());
    }
    let reason = ctx.elicit::<Reason>("Why?").await?;
    DELETED.fetch_add(1, Ordering::SeqCst);
    Ok(match reason {
        Answer::Accepted(r) => format!("deleted {id}: {}", r.reason),
        Answer::Declined | Answer::Cancelled => format!("deleted {id}"),
    })
}

fn keys() -> StateKeys {
    StateKeys::new("k1", [42; 32])
}

async fn replica(keys: StateKeys) -> (SocketAddr, CancellationToken) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let shutdown = CancellationToken::new();
    let server = McpServer::new(toolset![delete_note])
        .with_stateless_http(true)
        .with_request_state_keys(keys);
    tokio::spawn(server.serve_http_on(listener, shutdown.clone()));
    (addr, shutdown)
}

/// A 2026-07-28 `tools/call` of `delete_note` (the SEP-2243 headers), with what a retry adds.
async fn call(addr: SocketAddr, id: u32, arguments: Value, retry: Option<(Value, &str)>) -> Value {
    let mut params = json!({
        "name": "delete_note", "arguments": arguments,
        "_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": { "elicitation": { "form": {} } },
            "io.modelcontextprotocol/clientInfo": { "name": "mrtr", "version": "1" }
        }
    });
    if let Some((responses, state)) = retry {
        params["inputResponses"] = responses;
        params["requestState"] = state.into();
    }
    let body =
        json!({ "jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params }).to_string();
    let head = format!(
        "POST /mcp HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\n\
         Mcp-Method: tools/call\r\nMcp-Name: delete_note\r\n"
    );
    let mut conn = Conn::connect(addr).await;
    let response = tokio::time::timeout(
        http_wire::WAIT,
        conn.send(&head, Body::Length(body.as_bytes())),
    )
    .await
    .expect("an answer in time")
    .unwrap();
    assert_eq!(response.status, 200, "{}", response.body);
    response.json()
}

fn state_of(answer: &Value) -> String {
    answer["result"]["requestState"]
        .as_str()
        .unwrap_or_else(|| panic!("no requestState: {answer}"))
        .to_owned()
}

fn text_of(answer: &Value) -> &str {
    answer["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_else(|| panic!("no text: {answer}"))
}

#[tokio::test]
async fn a_question_travels_between_two_replicas_and_the_body_runs_on_with_the_answers() {
    let (a, _stop_a) = replica(keys()).await;
    let (b, _stop_b) = replica(keys()).await;
    let args = json!({ "id": 4 });
    let deleted_before = DELETED.load(Ordering::SeqCst);

    let first = call(a, 1, args.clone(), None).await;
    let result = &first["result"];
    assert_eq!(result["resultType"], "input_required", "{first}");
    assert_eq!(
        result["inputRequests"],
        json!({ "q0": { "method": "elicitation/create", "params": {
            "mode": "form", "message": "Delete note 4?",
            "requestedSchema": { "type": "object", "properties": {} }
        } } })
    );
    let state = state_of(&first);
    // Sealed, not readable: neither the JSON in plain text nor merely base64-encoded (which
    // would start `eyJ`, the encoding of `{"`). (It once checked for `q0`, which random
    // ciphertext in base64 contains about one time in twenty.)
    let payload = state.rsplit('.').next().unwrap_or_default();
    assert!(
        !state.contains("answers") && !state.contains("asked") && !payload.starts_with("eyJ"),
        "the state is sealed, not readable: {state}"
    );

    // On the other replica: the confirmation is answered; the body asks its second question.
    let yes = json!({ "q0": { "action": "accept", "content": {} } });
    let second = call(b, 2, args.clone(), Some((yes, &state))).await;
    assert_eq!(second["result"]["resultType"], "input_required", "{second}");
    assert_eq!(
        second["result"]["inputRequests"]["q1"]["params"]["requestedSchema"],
        Reason::schema()
    );
    assert_eq!(
        DELETED.load(Ordering::SeqCst),
        deleted_before,
        "nothing deleted yet"
    );

    // Back on the first replica: the state carries the first answer, the retry the second.
    let why = json!({ "q1": { "action": "accept", "content": { "reason": "stale" } } });
    let third = call(a, 3, args, Some((why, &state_of(&second)))).await;
    assert_eq!(text_of(&third), "deleted 4: stale", "{third}");
    assert_eq!(DELETED.load(Ordering::SeqCst), deleted_before + 1);
}

#[tokio::test]
async fn a_declined_confirmation_ends_the_call_without_the_side_effect() {
    let (a, _stop) = replica(keys()).await;
    let args = json!({ "id": 5 });
    let first = call(a, 1, args.clone(), None).await;
    let no = json!({ "q0": { "action": "decline" } });
    let second = call(a, 2, args, Some((no, &state_of(&first)))).await;
    assert_eq!(text_of(&second), "kept", "{second}");
}

/// The refusal of a retry: -32602 with the reason.
fn refusal(answer: &Value) -> (i64, String) {
    let error = &answer["error"];
    (
        error["code"]
            .as_i64()
            .unwrap_or_else(|| panic!("not an error: {answer}")),
        error["message"].as_str().unwrap_or_default().to_owned(),
    )
}

#[tokio::test]
async fn tampered_foreign_replayed_and_expired_states_are_refused() {
    let (a, _stop) = replica(keys()).await;
    let yes = json!({ "q0": { "action": "accept", "content": {} } });
    let state = state_of(&call(a, 1, json!({ "id": 6 }), None).await);

    // One character of the sealed body changed.
    let mut tampered = state.clone().into_bytes();
    let last = tampered.len() - 2;
    tampered[last] = if tampered[last] == b'A' { b'B' } else { b'A' };
    let tampered = String::from_utf8(tampered).unwrap();
    let (code, message) =
        refusal(&call(a, 2, json!({ "id": 6 }), Some((yes.clone(), &tampered))).await);
    assert_eq!(code, -32602);
    assert!(
        message.contains("altered, or belongs to another call"),
        "{message}"
    );

    // The state of note 6 on a call for note 7: the approval does not move to other arguments.
    let answer = call(a, 3, json!({ "id": 7 }), Some((yes.clone(), &state))).await;
    assert!(
        refusal(&answer).1.contains("belongs to another call"),
        "{answer}"
    );

    // Used once, then refused.
    let used = call(a, 4, json!({ "id": 6 }), Some((yes.clone(), &state))).await;
    assert_eq!(used["result"]["resultType"], "input_required", "{used}");
    let again = call(a, 5, json!({ "id": 6 }), Some((yes.clone(), &state))).await;
    assert!(refusal(&again).1.contains("already used"), "{again}");

    // A key this replica does not hold.
    let (other, _stop_other) = replica(StateKeys::new("k9", [9; 32])).await;
    let foreign = state_of(&call(other, 6, json!({ "id": 6 }), None).await);
    let answer = call(a, 7, json!({ "id": 6 }), Some((yes.clone(), &foreign))).await;
    assert!(
        refusal(&answer).1.contains("key this server does not hold"),
        "{answer}"
    );

    // Expired: sealed with no lifetime at all.
    let (short, _stop_short) = replica(keys().with_ttl(Duration::ZERO)).await;
    let expired = state_of(&call(short, 8, json!({ "id": 6 }), None).await);
    let answer = call(short, 9, json!({ "id": 6 }), Some((yes, &expired))).await;
    assert!(refusal(&answer).1.contains("expired"), "{answer}");
}

#[tokio::test]
async fn a_client_without_elicitation_gets_a_failure_not_a_question() {
    let (a, _stop) = replica(keys()).await;
    let body = json!({ "jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
        "name": "delete_note", "arguments": { "id": 8 },
        "_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {},
            "io.modelcontextprotocol/clientInfo": { "name": "mrtr", "version": "1" }
        }
    } })
    .to_string();
    let head = format!(
        "POST /mcp HTTP/1.1\r\nHost: {a}\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\n\
         Mcp-Method: tools/call\r\nMcp-Name: delete_note\r\n"
    );
    let response = Conn::connect(a)
        .await
        .send(&head, Body::Length(body.as_bytes()))
        .await
        .unwrap();
    let answer = response.json();
    assert_eq!(answer["result"]["isError"], true, "{answer}");
    assert!(
        text_of(&answer).contains("did not declare the `elicitation` capability"),
        "{answer}"
    );
}

/// Before 2026-07-28 a stateless server has no session to send `elicitation/create` on: the
/// question fails at once, with the reason, instead of waiting.
#[tokio::test]
async fn a_legacy_call_on_a_stateless_server_fails_at_once() {
    let (a, _stop) = replica(keys()).await;
    let body = json!({ "jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": { "name": "delete_note", "arguments": { "id": 9 } } })
    .to_string();
    let head = format!(
        "POST /mcp HTTP/1.1\r\nHost: {a}\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2025-11-25\r\n"
    );
    let response = tokio::time::timeout(
        http_wire::WAIT,
        Conn::connect(a)
            .await
            .send(&head, Body::Length(body.as_bytes())),
    )
    .await
    .expect("an answer, not a wait")
    .unwrap();
    let answer = response.json();
    assert_eq!(answer["result"]["isError"], true, "{answer}");
    assert!(
        text_of(&answer).contains("no session to send `elicitation/create` on"),
        "{answer}"
    );
}
