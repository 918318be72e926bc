//! A tool result holding an integer beyond ±2^53, served by `ToolAgent`: A2A data parts are
//! protobuf `Struct`s (doubles), so the server crate refuses such a part. The call was valid,
//! so the task completes with the result as exact JSON text, which `A2aToolExecutor` reads
//! back as the same value.
#![cfg(feature = "a2a-client")]

mod a2a_support;

use std::time::Duration;

use a2a_support::{rpc, send_params};
use serde_json::json;
use tool_executor::agent::{A2aToolExecutor, AgentServer, EXACT_JSON_MEDIA_TYPE, ToolAgent};
use tool_executor::prelude::*;

const LIMIT: Duration = Duration::from_secs(20);

/// A ledger entry's id, past what a double holds exactly.
#[tool]
fn entry() -> u64 {
    9_007_199_254_740_993
}

/// A small number.
#[tool]
fn small() -> serde_json::Value {
    json!({"n": 7})
}

#[tokio::test]
async fn a_result_beyond_two_to_the_53_completes_as_exact_json() {
    let server = AgentServer::bind("127.0.0.1:0", ToolAgent::new(toolset![entry, small]))
        .await
        .expect("bind")
        .spawn();
    let call = json!({"tool": "entry", "arguments": {}});
    let task = rpc(
        server.local_addr(),
        "SendMessage",
        send_params(&json!([{ "data": call }])),
    )
    .await["task"]
        .clone();
    assert_eq!(task["status"]["state"], "TASK_STATE_COMPLETED", "{task}");
    let part = &task["artifacts"][0]["parts"][0];
    assert_eq!(part["text"], "9007199254740993", "{task}");
    assert_eq!(part["mediaType"], EXACT_JSON_MEDIA_TYPE, "{task}");

    // An ordinary result stays a data part.
    let call = json!({"tool": "small", "arguments": {}});
    let task = rpc(
        server.local_addr(),
        "SendMessage",
        send_params(&json!([{ "data": call }])),
    )
    .await["task"]
        .clone();
    assert_eq!(
        task["artifacts"][0]["parts"][0]["data"],
        json!({"n": 7}),
        "{task}"
    );

    // Our client reads the exact value back.
    let url = format!("http://{}", server.local_addr());
    let tools = tokio::time::timeout(LIMIT, A2aToolExecutor::connect(&url))
        .await
        .expect("connect within the limit")
        .expect("connect");
    let out = tokio::time::timeout(LIMIT, tools.execute("entry", &json!({})))
        .await
        .expect("answer within the limit");
    assert_eq!(out, Ok(json!(9_007_199_254_740_993_u64)));
    assert_eq!(
        tools.execute("small", &json!({})).await,
        Ok(json!({"n": 7}))
    );
}
