//! Our client answering a server's questions: `McpServerConfig::with_elicitor` declares the
//! `elicitation` capability and answers `elicitation/create` with the application's elicitor,
//! filling in each field the answer leaves out with its schema default (SEP-1034); without one
//! the client declares nothing and the server's tool learns at once that it cannot ask.
#![cfg(feature = "mcp-http")]

use std::sync::{Arc, Mutex};

use serde_json::json;
use tokio_util::sync::CancellationToken;
use tool_executor::elicit::{Action, ElicitError, Question, Reply};
use tool_executor::mcp::{McpProtocol, McpServer, McpServerConfig, McpToolExecutor};
use tool_executor::prelude::*;
use tool_executor::tool::BoxFuture;

mod booking_support;

use booking_support::book;

async fn serve() -> (String, CancellationToken) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    let shutdown = CancellationToken::new();
    tokio::spawn(McpServer::new(toolset![book]).serve_http_on(listener, shutdown.clone()));
    (url, shutdown)
}

#[tokio::test]
async fn the_elicitor_answers_and_the_client_fills_in_the_defaults() {
    let (url, shutdown) = serve().await;
    let asked = Arc::new(Mutex::new(Vec::<Question>::new()));
    let seen = Arc::clone(&asked);
    // The user picks a seat and leaves the count as it is.
    let elicitor = move |question: Question| -> BoxFuture<'static, Result<Reply, ElicitError>> {
        seen.lock().unwrap().push(question);
        Box::pin(async {
            Ok(Reply {
                action: Action::Accept,
                content: json!({"seat": "Aisle"}).as_object().cloned(),
            })
        })
    };
    let config = McpServerConfig::http("tickets", url)
        .protocol(McpProtocol::Initialize)
        .with_elicitor(elicitor);
    let client = McpToolExecutor::connect(config).await.expect("connect");
    let out = client
        .execute_with_context("book", &json!({"show": "Hamlet"}), ToolContext::new())
        .await
        .expect("booked");
    assert_eq!(out.output, json!("2 Aisle seats for Hamlet"));
    let asked = asked.lock().unwrap().clone();
    let [Question::Form { message, schema }] = asked.as_slice() else {
        panic!("one form question: {asked:?}");
    };
    assert_eq!(message, "Seats for Hamlet?");
    assert_eq!(schema["properties"]["count"]["default"], json!(2));
    shutdown.cancel();
}

#[tokio::test]
async fn a_declined_question_reaches_the_tool() {
    let (url, shutdown) = serve().await;
    let decline = |_: Question| -> BoxFuture<'static, Result<Reply, ElicitError>> {
        Box::pin(async {
            Ok(Reply {
                action: Action::Decline,
                content: None,
            })
        })
    };
    let config = McpServerConfig::http("tickets", url)
        .protocol(McpProtocol::Initialize)
        .with_elicitor(decline);
    let client = McpToolExecutor::connect(config).await.expect("connect");
    let out = client
        .execute_with_context("book", &json!({"show": "Hamlet"}), ToolContext::new())
        .await
        .expect("answered");
    assert_eq!(out.output, json!("declined"));
    shutdown.cancel();
}

#[tokio::test]
async fn without_an_elicitor_the_tool_cannot_ask_and_says_so_at_once() {
    let (url, shutdown) = serve().await;
    let config = McpServerConfig::http("tickets", url).protocol(McpProtocol::Initialize);
    let client = McpToolExecutor::connect(config).await.expect("connect");
    let failure = tokio::time::timeout(
        std::time::Duration::from_secs(10),
        client.execute_with_context("book", &json!({"show": "Hamlet"}), ToolContext::new()),
    )
    .await
    .expect("no wait")
    .expect_err("the tool could not ask");
    assert_eq!(
        failure.code(),
        "elicitation_unsupported",
        "{}",
        failure.message()
    );
    shutdown.cancel();
}
