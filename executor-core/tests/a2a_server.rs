//! Declared agents served by the real A2A server over loopback: card, send, stream, get,
//! cancel, the HTTP+JSON binding, and bad input answered with proper A2A errors.
#![cfg(feature = "a2a")]

mod a2a_support;

use std::time::Duration;

use a2a_support::{
    V1, request, rpc, rpc_error, rpc_raw, send_params, text_message, wait_for_state,
};
use serde_json::{Value, json};
use tool_executor::agent::types::agent_card::{AgentCapabilities, AgentInterface, AgentSkill};
use tool_executor::agent::{
    A2aResult, AgentServer, Emitter, EventQueueWriter, RequestContext, RunningAgent,
};

/// Answers with the text it was sent.
#[tool_executor::agent(
    name = "Echo",
    version = "1.2.3",
    streaming,
    provider(organization = "Executor tests", url = "https://example.org"),
    skill(id = "echo", name = "Echo", description = "Repeats the message.", tags = ["echo", "test"], examples = ["hello"]),
)]
impl Echo {
    async fn execute(&self, ctx: &RequestContext, queue: &dyn EventQueueWriter) -> A2aResult<()> {
        let emit = Emitter::new(ctx, queue);
        emit.working("echoing").await?;
        emit.text_artifact("echo", ctx.message.text().unwrap_or_default())
            .await
    }
}
struct Echo;

/// Works until cancelled, one status update every 50 ms.
struct Slow {
    tick: Duration,
}

tool_executor::agent_executor!(Slow, |ctx, queue| async move {
    let emit = Emitter::new(ctx, queue);
    for i in 0.. {
        if emit
            .until_cancelled(tokio::time::sleep(self.tick))
            .await
            .is_none()
        {
            // Anything written now is dropped: the task stays canceled.
            emit.working("still here").await?;
            emit.complete().await?;
            return Ok(());
        }
        emit.working(format!("tick {i}")).await?;
    }
    Ok(())
});

async fn echo_server() -> RunningAgent {
    AgentServer::bind("127.0.0.1:0", Echo)
        .await
        .expect("bind")
        .spawn()
}

async fn slow_server() -> RunningAgent {
    let slow = Slow {
        tick: Duration::from_millis(50),
    };
    let card = |url: &str| {
        tool_executor::agent::AgentCard::new("Slow", "1.0.0", AgentInterface::jsonrpc(url))
            .with_description("Works until cancelled.")
            .with_capabilities(AgentCapabilities::none().with_streaming(true))
            .with_skill(AgentSkill::new("wait", "Wait", "Waits.").with_tags(["wait"]))
    };
    AgentServer::bind_executor("127.0.0.1:0", slow, card)
        .await
        .expect("bind")
        .spawn()
}

#[tokio::test]
async fn the_card_is_served_at_the_well_known_path() {
    let server = echo_server().await;
    let response = request(
        server.local_addr(),
        "GET",
        "/.well-known/agent-card.json",
        &[],
        None,
    )
    .await;
    assert_eq!(response.status, 200);
    let card = response.json();
    let url = format!("http://{}", server.local_addr());
    assert_eq!(card["name"], "Echo");
    assert_eq!(card["description"], "Answers with the text it was sent.");
    assert_eq!(card["version"], "1.2.3");
    assert_eq!(
        card["provider"],
        json!({"organization": "Executor tests", "url": "https://example.org"})
    );
    assert_eq!(card["capabilities"]["streaming"], true);
    assert_eq!(card["defaultInputModes"], json!(["text/plain"]));
    assert_eq!(
        card["supportedInterfaces"],
        json!([
            {"url": url, "protocolBinding": "JSONRPC", "protocolVersion": "1.0"},
            {"url": url, "protocolBinding": "HTTP+JSON", "protocolVersion": "1.0"},
        ])
    );
    assert_eq!(
        card["skills"],
        json!([{"id": "echo", "name": "Echo", "description": "Repeats the message.",
                "tags": ["echo", "test"], "examples": ["hello"]}])
    );
}

#[tokio::test]
async fn send_then_get_returns_the_completed_task() {
    let server = echo_server().await;
    let addr = server.local_addr();
    let result = rpc(addr, "SendMessage", text_message("hello agent")).await;
    let task = &result["task"];
    assert_eq!(task["status"]["state"], "TASK_STATE_COMPLETED", "{result}");
    assert_eq!(a2a_support::artifact_texts(task), ["hello agent"]);
    let id = task["id"].as_str().unwrap();
    let got = rpc(addr, "GetTask", json!({ "id": id })).await;
    assert_eq!(got["id"], id);
    assert_eq!(got["status"]["state"], "TASK_STATE_COMPLETED");
    assert_eq!(a2a_support::artifact_texts(&got), ["hello agent"]);
}

#[tokio::test]
async fn streaming_sends_working_the_artifact_then_completed() {
    let server = echo_server().await;
    let body = json!({"jsonrpc": "2.0", "id": 7, "method": "SendStreamingMessage", "params": text_message("streamed")});
    let response = request(
        server.local_addr(),
        "POST",
        "/",
        &[V1, ("Content-Type", "application/json")],
        Some(&body.to_string()),
    )
    .await;
    assert_eq!(response.status, 200);
    assert!(
        response
            .header("content-type")
            .unwrap_or_default()
            .starts_with("text/event-stream")
    );
    let events: Vec<Value> = response
        .sse_events()
        .into_iter()
        .map(|e| e["result"].clone())
        .collect();
    let kinds: Vec<String> = events.iter().map(kind).collect();
    assert_eq!(kinds.first().map(String::as_str), Some("task"), "{kinds:?}");
    assert!(
        kinds.contains(&"status:TASK_STATE_WORKING".to_owned()),
        "{kinds:?}"
    );
    assert!(kinds.contains(&"artifact".to_owned()), "{kinds:?}");
    assert_eq!(
        kinds.last().map(String::as_str),
        Some("status:TASK_STATE_COMPLETED"),
        "{kinds:?}"
    );
    let artifact = events
        .iter()
        .find(|e| e.get("artifactUpdate").is_some())
        .unwrap();
    assert_eq!(
        artifact["artifactUpdate"]["artifact"]["parts"][0]["text"],
        "streamed"
    );
}

/// `task`, `status:<state>`, `artifact` or `message` for one stream event.
fn kind(event: &Value) -> String {
    if event.get("task").is_some() {
        "task".to_owned()
    } else if let Some(update) = event.get("statusUpdate") {
        format!(
            "status:{}",
            update["status"]["state"].as_str().unwrap_or("?")
        )
    } else if event.get("artifactUpdate").is_some() {
        "artifact".to_owned()
    } else {
        "message".to_owned()
    }
}

#[tokio::test]
async fn a_cancelled_task_stays_canceled() {
    let server = slow_server().await;
    let addr = server.local_addr();
    let mut params = text_message("wait");
    params["configuration"] = json!({ "returnImmediately": true });
    let result = rpc(addr, "SendMessage", params).await;
    let id = result["task"]["id"].as_str().unwrap().to_owned();
    wait_for_state(addr, &id, "TASK_STATE_WORKING").await;
    let canceled = rpc(addr, "CancelTask", json!({ "id": id })).await;
    assert_eq!(
        canceled["status"]["state"], "TASK_STATE_CANCELED",
        "{canceled}"
    );
    // The agent sees the token, tries to write `working` and `completed`, and returns: the
    // queue drops both, so the task is still canceled afterwards.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let task = rpc(addr, "GetTask", json!({ "id": id })).await;
    assert_eq!(task["status"]["state"], "TASK_STATE_CANCELED", "{task}");
    // Cancelling a finished task is refused.
    let error = rpc_error(addr, "CancelTask", json!({ "id": id })).await;
    assert_eq!(error["code"], -32002, "{error}");
}

#[tokio::test]
async fn the_rest_binding_serves_the_same_agent() {
    let server = echo_server().await;
    let addr = server.local_addr();
    let body = text_message("over rest").to_string();
    let response = request(
        addr,
        "POST",
        "/message:send",
        &[V1, ("Content-Type", "application/json")],
        Some(&body),
    )
    .await;
    assert_eq!(response.status, 200, "{}", response.body);
    let task = response.json()["task"].clone();
    assert_eq!(task["status"]["state"], "TASK_STATE_COMPLETED");
    let id = task["id"].as_str().unwrap();
    let got = request(addr, "GET", &format!("/tasks/{id}"), &[V1], None).await;
    assert_eq!(got.status, 200);
    assert_eq!(a2a_support::artifact_texts(&got.json()), ["over rest"]);
    let missing = request(addr, "GET", "/tasks/no-such-task", &[V1], None).await;
    assert_eq!(missing.status, 404, "{}", missing.body);
}

#[tokio::test]
async fn malformed_json_rpc_is_a_parse_error() {
    let server = echo_server().await;
    let response = request(
        server.local_addr(),
        "POST",
        "/",
        &[V1, ("Content-Type", "application/json")],
        Some("{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": "),
    )
    .await;
    let body = response.json();
    assert_eq!(body["error"]["code"], -32700, "{body}");
    assert_eq!(body["id"], Value::Null);
}

#[tokio::test]
async fn an_unknown_method_is_method_not_found() {
    let server = echo_server().await;
    let error = rpc_error(
        server.local_addr(),
        "message/send",
        text_message("v0.3 name"),
    )
    .await;
    assert_eq!(error["code"], -32601, "{error}");
}

#[tokio::test]
async fn a_missing_or_wrong_version_header_is_version_not_supported() {
    let server = echo_server().await;
    let addr = server.local_addr();
    let body =
        json!({"jsonrpc": "2.0", "id": 1, "method": "GetTask", "params": {"id": "x"}}).to_string();
    for headers in [
        vec![("Content-Type", "application/json")],
        vec![("Content-Type", "application/json"), ("A2A-Version", "0.3")],
        vec![("Content-Type", "application/json"), ("A2A-Version", "7.0")],
    ] {
        let response = request(addr, "POST", "/", &headers, Some(&body))
            .await
            .json();
        assert_eq!(response["error"]["code"], -32009, "{headers:?}: {response}");
    }
}

#[tokio::test]
async fn an_unknown_task_is_task_not_found() {
    let server = echo_server().await;
    let addr = server.local_addr();
    let error = rpc_error(addr, "GetTask", json!({ "id": "no-such-task" })).await;
    assert_eq!(error["code"], -32001, "{error}");
    let error = rpc_error(addr, "CancelTask", json!({ "id": "no-such-task" })).await;
    assert_eq!(error["code"], -32001, "{error}");
}

#[tokio::test]
async fn cancelling_a_completed_task_is_task_not_cancelable() {
    let server = echo_server().await;
    let addr = server.local_addr();
    let result = rpc(addr, "SendMessage", text_message("done soon")).await;
    let id = result["task"]["id"].as_str().unwrap();
    let error = rpc_error(addr, "CancelTask", json!({ "id": id })).await;
    assert_eq!(error["code"], -32002, "{error}");
}

#[tokio::test]
async fn invalid_params_are_invalid_params() {
    let server = echo_server().await;
    let response = rpc_raw(
        server.local_addr(),
        "SendMessage",
        json!({"message": "not a message"}),
    )
    .await
    .json();
    assert_eq!(response["error"]["code"], -32602, "{response}");
    let response = rpc_raw(server.local_addr(), "SendMessage", send_params(&json!([])))
        .await
        .json();
    assert!(
        response.get("error").is_some(),
        "a message without parts is refused: {response}"
    );
}

#[tokio::test]
async fn shutdown_stops_the_server() {
    let server = echo_server().await;
    let addr = server.local_addr();
    let report = tokio::time::timeout(a2a_support::TIMEOUT, server.shutdown())
        .await
        .expect("shutdown is bounded")
        .expect("the serving task did not panic");
    assert!(report.serve.drained);
    assert!(
        tokio::net::TcpStream::connect(addr).await.is_err(),
        "nothing listens after shutdown"
    );
}

/// Pushes its results.
#[tool_executor::agent(push_notifications, skill(id = "push", tags = ["push"]))]
impl Pusher {
    async fn execute(&self, ctx: &RequestContext, queue: &dyn EventQueueWriter) -> A2aResult<()> {
        Emitter::new(ctx, queue).complete().await
    }
}
struct Pusher;

#[tokio::test]
async fn a_push_notification_agent_is_served_with_a_push_sender() {
    let server = AgentServer::bind("127.0.0.1:0", Pusher)
        .await
        .expect("the server accepts the card")
        .spawn();
    let card = request(
        server.local_addr(),
        "GET",
        "/.well-known/agent-card.json",
        &[],
        None,
    )
    .await
    .json();
    assert_eq!(card["capabilities"]["pushNotifications"], true);
    let task = rpc(server.local_addr(), "SendMessage", text_message("hi")).await["task"].clone();
    assert_eq!(task["status"]["state"], "TASK_STATE_COMPLETED");
}

#[tokio::test]
async fn an_invalid_card_is_refused_when_binding() {
    let card = |url: &str| {
        // No skills: A2A 1.0 requires one.
        tool_executor::agent::AgentCard::new("Bare", "1.0.0", AgentInterface::jsonrpc(url))
            .with_description("No skills.")
    };
    let error = AgentServer::bind_executor(
        "127.0.0.1:0",
        Slow {
            tick: Duration::from_secs(1),
        },
        card,
    )
    .await
    .expect_err("a card without skills is refused");
    assert!(error.to_string().contains("skill"), "{error}");
}

/// A `SendMessage` request whose text makes the body `mib` MiB or a little more.
fn body_of(mib: usize) -> String {
    let params = text_message(&"x".repeat(mib << 20));
    json!({"jsonrpc": "2.0", "id": 1, "method": "SendMessage", "params": params}).to_string()
}

#[tokio::test]
async fn an_oversized_body_gets_413_naming_the_limit_instead_of_a_reset() {
    let server = echo_server().await;
    let addr = server.local_addr();
    let headers = [("Content-Type", "application/json"), V1];
    for mib in [5, 20] {
        let body = body_of(mib);
        let response = request(addr, "POST", "/", &headers, Some(&body)).await;
        assert_eq!(response.status, 413, "{mib} MiB: {}", response.body);
        let error = &response.json()["error"];
        assert_eq!(error["code"], -32600, "{error}");
        assert_eq!(
            error["message"],
            format!(
                "request body of {} bytes exceeds the 4194304-byte limit (AgentServer::with_max_request_bytes)",
                body.len()
            )
        );
    }
    // The server is still there.
    let task = rpc(addr, "SendMessage", text_message("still here")).await;
    assert_eq!(a2a_support::artifact_texts(&task["task"]), ["still here"]);
}

#[tokio::test]
async fn the_body_limit_is_settable() {
    let server = AgentServer::bind("127.0.0.1:0", Echo)
        .await
        .expect("bind")
        .with_max_request_bytes(8 << 20)
        .spawn();
    let headers = [("Content-Type", "application/json"), V1];
    let response = request(
        server.local_addr(),
        "POST",
        "/",
        &headers,
        Some(&body_of(5)),
    )
    .await;
    assert_eq!(response.status, 200);
    assert!(
        response.json()["result"]["task"].is_object(),
        "5 MiB fit under 8 MiB"
    );
    let body = body_of(9);
    let response = request(server.local_addr(), "POST", "/", &headers, Some(&body)).await;
    assert_eq!(response.status, 413);
    assert!(
        response.json()["error"]["message"]
            .as_str()
            .unwrap()
            .contains("exceeds the 8388608-byte limit"),
        "{}",
        response.body
    );
}
