//! A tool set served as an A2A agent by the real server, over loopback.
#![cfg(feature = "a2a")]

mod a2a_support;

// The quickstart's tools, to check the skill examples of the tools a newcomer sees first.
#[path = "../../examples/quickstart.rs"]
#[allow(dead_code, unreachable_pub)] // the tour's `main` is not used here
mod quickstart;

use std::time::Duration;

use a2a_support::{V1, request, rpc, send_params, wait_for_state};
use serde_json::{Value, json};
use tool_executor::agent::{
    AgentServer, RunningAgent, RunningCalls, TOOL_SCHEMAS_EXTENSION, ToolAgent,
};
use tool_executor::failure::FailureKind;
use tool_executor::prelude::*;
use tool_executor::runtime::{Handle, HandleStatus};

/// Adds two numbers.
#[tool(read_only, idempotent)]
fn add(
    /// The first addend.
    a: i64,
    /// The second addend.
    b: i64,
) -> i64 {
    a + b
}

/// Divides `a` by `b`.
#[tool]
#[allow(clippy::result_large_err)] // a tool returns `ToolFailure` as is
fn divide(a: i64, b: i64) -> Result<i64, ToolFailure> {
    if b == 0 {
        return Err(ToolFailure::terminal("division by zero").with_code("division_by_zero"));
    }
    Ok(a / b)
}

/// Counts to `to`, reporting progress and streaming each number.
#[tool]
async fn count(to: u32, ctx: &ToolContext) -> u32 {
    for i in 1..=to {
        ctx.progress(f64::from(i) / f64::from(to), Some(format!("at {i}")))
            .await;
        ctx.text(i.to_string()).await;
    }
    to
}

/// Waits a minute.
#[tool]
async fn wait() -> String {
    tokio::time::sleep(Duration::from_secs(60)).await;
    "waited".to_owned()
}

async fn server() -> RunningAgent {
    let agent = ToolAgent::new(toolset![add, divide, count, wait])
        .with_name("Calculator")
        .with_version("2.0.0");
    AgentServer::bind("127.0.0.1:0", agent)
        .await
        .expect("bind")
        .spawn()
}

fn call(tool: &str, arguments: &Value) -> Value {
    send_params(&json!([{ "data": { "tool": tool, "arguments": arguments } }]))
}

#[tokio::test]
async fn the_card_lists_one_skill_per_tool_with_its_schemas() {
    let server = server().await;
    let card = request(
        server.local_addr(),
        "GET",
        "/.well-known/agent-card.json",
        &[],
        None,
    )
    .await
    .json();
    assert_eq!(card["name"], "Calculator");
    assert_eq!(card["version"], "2.0.0");
    assert_eq!(card["description"], "Runs tools: add, divide, count, wait.");
    let ids: Vec<&str> = card["skills"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["add", "divide", "count", "wait"]);
    assert_eq!(
        card["skills"][0],
        json!({
            "id": "add", "name": "add", "description": "Adds two numbers.",
            "tags": ["tool", "read-only", "idempotent"],
            "examples": ["{\"arguments\":{\"a\":1,\"b\":1},\"tool\":\"add\"}"],
            "inputModes": ["application/json"], "outputModes": ["application/json"],
        })
    );
    let extension = &card["capabilities"]["extensions"][0];
    assert_eq!(extension["uri"], TOOL_SCHEMAS_EXTENSION);
    assert_eq!(extension["required"], false);
    let schemas = &extension["params"]["skills"];
    assert_eq!(schemas["add"]["inputSchema"], add::spec().input_schema);
    assert_eq!(schemas["add"]["inputSchema"]["required"], json!(["a", "b"]));
    assert_eq!(
        schemas["add"]["outputSchema"],
        add::spec().output_schema.clone().unwrap()
    );
}

#[tokio::test]
async fn a_data_part_runs_the_tool_and_completes_with_its_result() {
    let server = server().await;
    let result = rpc(
        server.local_addr(),
        "SendMessage",
        call("add", &json!({"a": 2, "b": 40})),
    )
    .await;
    let task = &result["task"];
    assert_eq!(task["status"]["state"], "TASK_STATE_COMPLETED", "{task}");
    assert_eq!(task["artifacts"][0]["artifactId"], "result");
    assert_eq!(task["artifacts"][0]["parts"], json!([{"data": 42}]));
}

#[tokio::test]
async fn a_failure_fails_the_task_with_its_message_code_and_class() {
    let server = server().await;
    let addr = server.local_addr();
    let task = rpc(
        addr,
        "SendMessage",
        call("divide", &json!({"a": 1, "b": 0})),
    )
    .await["task"]
        .clone();
    assert_eq!(task["status"]["state"], "TASK_STATE_FAILED", "{task}");
    let message = &task["status"]["message"];
    assert_eq!(message["parts"][0]["text"], "division by zero");
    // terminal: the same request fails again (failure table: invalid-request)
    assert_eq!(
        message["metadata"]["a2a-rust.com/failure"],
        "invalid-request"
    );
    // The blocking answer keeps the code too (issue 15: only the streamed status update had
    // it, and the task a blocking send returns drops the event's metadata).
    assert_eq!(message["metadata"]["code"], "division_by_zero", "{task}");

    let task = rpc(
        addr,
        "SendMessage",
        call("add", &json!({"a": "two", "b": 1})),
    )
    .await["task"]
        .clone();
    assert_eq!(task["status"]["state"], "TASK_STATE_FAILED", "{task}");
    assert_eq!(
        task["status"]["message"]["parts"][0]["text"],
        "a: expected an integer, got \"two\""
    );
    assert_eq!(
        task["status"]["message"]["metadata"]["a2a-rust.com/failure"],
        "invalid-request"
    );

    let task = rpc(addr, "SendMessage", call("nope", &json!({}))).await["task"].clone();
    assert_eq!(task["status"]["state"], "TASK_STATE_FAILED", "{task}");
    assert_eq!(
        task["status"]["message"]["metadata"]["a2a-rust.com/failure"],
        "invalid-request"
    );
}

#[tokio::test]
async fn the_failure_code_reaches_a_streaming_client() {
    let server = server().await;
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "SendStreamingMessage",
                      "params": call("divide", &json!({"a": 1, "b": 0}))});
    let response = request(
        server.local_addr(),
        "POST",
        "/",
        &[V1, ("Content-Type", "application/json")],
        Some(&body.to_string()),
    )
    .await;
    let events = response.sse_events();
    let last = &events.last().unwrap()["result"]["statusUpdate"];
    assert_eq!(last["status"]["state"], "TASK_STATE_FAILED", "{events:?}");
    assert_eq!(last["metadata"]["code"], "division_by_zero");
}

#[tokio::test]
async fn a_text_only_message_fails_saying_what_to_send() {
    let server = server().await;
    let params = send_params(&json!([{ "text": "add 2 and 40" }]));
    let task = rpc(server.local_addr(), "SendMessage", params).await["task"].clone();
    assert_eq!(task["status"]["state"], "TASK_STATE_FAILED", "{task}");
    assert_eq!(
        task["status"]["message"]["parts"][0]["text"],
        "the message has no data part; this agent runs tools: send a message with a data part \
         {\"tool\": NAME, \"arguments\": {…}} where NAME is one of: add, divide, count, wait"
    );
}

#[tokio::test]
async fn a_streaming_tool_streams_progress_and_chunks() {
    let server = server().await;
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "SendStreamingMessage",
                      "params": call("count", &json!({"to": 3}))});
    let response = request(
        server.local_addr(),
        "POST",
        "/",
        &[V1, ("Content-Type", "application/json")],
        Some(&body.to_string()),
    )
    .await;
    let events: Vec<Value> = response
        .sse_events()
        .into_iter()
        .map(|e| e["result"].clone())
        .collect();
    let progress: Vec<f64> = events
        .iter()
        .filter_map(|e| e["statusUpdate"]["metadata"]["progress"].as_f64())
        .collect();
    assert_eq!(progress.len(), 3, "{events:?}");
    assert!((progress[2] - 1.0).abs() < f64::EPSILON);
    let chunks: Vec<(String, Value, Value)> = events
        .iter()
        .filter_map(|e| e.get("artifactUpdate"))
        .map(|u| {
            let part = &u["artifact"]["parts"][0];
            let text = part.get("text").map_or_else(
                || part["data"].to_string(),
                |t| t.as_str().unwrap().to_owned(),
            );
            (text, u["append"].clone(), u["lastChunk"].clone())
        })
        .collect();
    assert_eq!(
        chunks,
        [
            ("1".to_owned(), json!(false), json!(false)),
            ("2".to_owned(), json!(true), json!(false)),
            ("3".to_owned(), json!(true), json!(false)),
            ("3".to_owned(), json!(false), json!(true)),
        ]
    );
    let last = events.last().unwrap();
    assert_eq!(
        last["statusUpdate"]["status"]["state"],
        "TASK_STATE_COMPLETED"
    );
}

#[tokio::test]
async fn cancelling_the_task_cancels_the_tool() {
    let server = server().await;
    let addr = server.local_addr();
    let mut params = call("wait", &json!({}));
    params["configuration"] = json!({ "returnImmediately": true });
    let id = rpc(addr, "SendMessage", params).await["task"]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    tokio::time::sleep(Duration::from_millis(100)).await;
    let canceled = rpc(addr, "CancelTask", json!({ "id": id })).await;
    assert_eq!(canceled["status"]["state"], "TASK_STATE_CANCELED");
    let task = wait_for_state(addr, &id, "TASK_STATE_CANCELED").await;
    assert!(
        task["artifacts"].as_array().is_none_or(Vec::is_empty),
        "{task}"
    );
}

/// Reports half way, then waits a minute.
#[tool]
async fn halfway(ctx: &ToolContext) -> String {
    ctx.progress(0.5, Some("half way".to_owned())).await;
    tokio::time::sleep(Duration::from_secs(60)).await;
    "waited".to_owned()
}

/// The running call of `id`, once the agent started it.
async fn running(calls: &RunningCalls, id: &str) -> Handle {
    let deadline = tokio::time::Instant::now() + a2a_support::TIMEOUT;
    loop {
        if let Some(handle) = calls.get(id) {
            return handle;
        }
        assert!(tokio::time::Instant::now() < deadline, "{id} never ran");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

#[tokio::test]
async fn an_a2a_tasks_call_is_a_runtime_handle_both_ways_cancellable() {
    let agent = ToolAgent::new(toolset![halfway]);
    let calls = agent.running_calls();
    let server = AgentServer::bind("127.0.0.1:0", agent)
        .await
        .expect("bind")
        .spawn();
    let addr = server.local_addr();
    let start = || {
        let mut params = call("halfway", &json!({}));
        params["configuration"] = json!({ "returnImmediately": true });
        params
    };

    // The task's call, as a handle: its status and progress message; cancelling the handle
    // cancels the task.
    let id = rpc(addr, "SendMessage", start()).await["task"]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let handle = running(&calls, &id).await;
    assert_eq!(handle.status(), HandleStatus::Running);
    let deadline = tokio::time::Instant::now() + a2a_support::TIMEOUT;
    while handle.status_message().is_none() {
        assert!(tokio::time::Instant::now() < deadline, "no progress");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(handle.status_message().as_deref(), Some("half way"));
    handle.cancel();
    let failure = handle.wait().await.expect_err("cancelled");
    assert_eq!(failure.kind(), FailureKind::Cancelled);
    wait_for_state(addr, &id, "TASK_STATE_CANCELED").await;
    assert_eq!(handle.status(), HandleStatus::Cancelled);

    // Cancelling the task cancels the handle.
    let id = rpc(addr, "SendMessage", start()).await["task"]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let handle = running(&calls, &id).await;
    rpc(addr, "CancelTask", json!({ "id": id })).await;
    let failure = tokio::time::timeout(a2a_support::TIMEOUT, handle.wait())
        .await
        .expect("the handle ends")
        .expect_err("cancelled");
    assert_eq!(failure.kind(), FailureKind::Cancelled);

    // An ended turn leaves nothing running.
    let deadline = tokio::time::Instant::now() + a2a_support::TIMEOUT;
    while !calls.is_empty() {
        assert!(tokio::time::Instant::now() < deadline, "{calls:?}");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert!(calls.get(&id).is_none());
}

/// A stateful service whose tools are methods.
#[derive(Clone, Default)]
struct Notes {
    notes: std::sync::Arc<std::sync::Mutex<Vec<String>>>,
}

#[tools]
impl Notes {
    /// Keeps a note and returns how many there are.
    #[tool]
    fn note(&self, text: String) -> usize {
        let mut notes = self.notes.lock().unwrap();
        notes.push(text);
        notes.len()
    }
}

#[tokio::test]
async fn a_tools_service_is_an_agent_too() {
    let notes = Notes::default();
    let server = AgentServer::bind("127.0.0.1:0", ToolAgent::new(notes.clone()))
        .await
        .expect("bind")
        .spawn();
    let addr = server.local_addr();
    for expected in [1, 2] {
        let task =
            rpc(addr, "SendMessage", call("note", &json!({"text": "milk"}))).await["task"].clone();
        assert_eq!(
            task["artifacts"][0]["parts"],
            json!([{ "data": expected }]),
            "{task}"
        );
    }
    assert_eq!(*notes.notes.lock().unwrap(), ["milk", "milk"]);
}

/// Each skill's example in the card, sent back as it is, is a call the tool accepts: the
/// quickstart's tools complete, and `get_weather`, whose sample city is not one it knows, fails
/// with its own typed failure rather than an argument error.
#[tokio::test]
async fn each_quickstart_skill_example_is_a_call_the_tool_accepts() {
    let agent = ToolAgent::new(quickstart::tools().expect("distinct names"));
    let server = AgentServer::bind("127.0.0.1:0", agent)
        .await
        .expect("bind")
        .spawn();
    let addr = server.local_addr();
    let card = request(addr, "GET", "/.well-known/agent-card.json", &[], None)
        .await
        .json();
    let mut outcomes = Vec::new();
    for skill in card["skills"].as_array().expect("skills") {
        let [example] = skill["examples"].as_array().expect("an example").as_slice() else {
            panic!("one example per skill: {skill}");
        };
        let example = example.as_str().expect("a string");
        let call: Value = serde_json::from_str(example).expect("the example is JSON");
        let task = rpc(addr, "SendMessage", send_params(&json!([{ "data": call }]))).await;
        let task = &task["task"];
        let outcome = match task["status"]["state"].as_str() {
            Some("TASK_STATE_COMPLETED") => task["artifacts"][0]["parts"][0]["data"].clone(),
            _ => task["status"]["message"]["parts"][0]["text"].clone(),
        };
        outcomes.push((example.to_owned(), outcome));
    }
    let expected = [
        // The city's doc comment quotes "Paris", which the tool knows: the example succeeds.
        (
            r#"{"arguments":{"city":"Paris"},"tool":"get_weather"}"#,
            json!({"city": "Paris", "temperature": 18.5, "unit": "celsius"}),
        ),
        (r#"{"arguments":{"a":1,"b":1},"tool":"add"}"#, json!(2)),
        (
            r#"{"arguments":{"words":["words"]},"tool":"join_words"}"#,
            json!("words"),
        ),
        (
            r#"{"arguments":{"text":"text"},"tool":"trim"}"#,
            json!("text"),
        ),
        (r#"{"arguments":{},"tool":"bump"}"#, json!(1)),
        (r#"{"arguments":{},"tool":"read"}"#, json!(1)),
    ]
    .map(|(example, outcome)| (example.to_owned(), outcome));
    assert_eq!(outcomes, expected);
}

/// A blocking `SendMessage` answers with the task: its status message carries the failure's
/// code and data beside the class, as the streamed status update's metadata does.
#[tokio::test]
async fn a_blocking_send_keeps_the_failure_code_and_data() {
    let agent = ToolAgent::new(quickstart::tools().expect("distinct names"));
    let server = AgentServer::bind("127.0.0.1:0", agent)
        .await
        .expect("bind")
        .spawn();
    let call = json!({"tool": "get_weather", "arguments": {"city": "Atlantis"}});
    let task = rpc(
        server.local_addr(),
        "SendMessage",
        send_params(&json!([{ "data": call }])),
    )
    .await["task"]
        .clone();
    assert_eq!(task["status"]["state"], "TASK_STATE_FAILED", "{task}");
    let metadata = &task["status"]["message"]["metadata"];
    assert_eq!(metadata["code"], "unknown_city", "{task}");
    assert_eq!(metadata["data"], json!({"city": "Atlantis"}), "{task}");
    assert_eq!(metadata["a2a-rust.com/failure"], "invalid-request");
}
