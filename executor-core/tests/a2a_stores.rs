//! `AgentServer::builder()`: tasks on the server crate's SQLite store outlive the server, and
//! `configure` reaches the server crate's handler builder.
#![cfg(feature = "a2a")]

mod a2a_support;

use a2a_support::{rpc, rpc_error, text_message};
#[cfg(feature = "a2a-sqlite")]
use serde_json::json;
use tool_executor::agent::server::rate_limit::{RateLimitConfig, RateLimitInterceptor};
use tool_executor::agent::{AgentServer, Emitter};

/// Completes with the text it was sent.
struct Echo;

tool_executor::agent_executor!(Echo, |ctx, queue| async move {
    let text = ctx.message.text().unwrap_or_default().to_owned();
    Emitter::new(ctx, queue).complete_with_message(text).await
});

fn card(url: &str) -> tool_executor::agent::AgentCard {
    use tool_executor::agent::types::agent_card::{AgentCapabilities, AgentInterface, AgentSkill};
    tool_executor::agent::AgentCard::new("Echo", "1.0.0", AgentInterface::jsonrpc(url))
        .with_description("Completes with the text it was sent.")
        .with_capabilities(AgentCapabilities::none())
        .with_skill(AgentSkill::new("echo", "Echo", "Echoes.").with_tags(["echo"]))
}

#[cfg(feature = "a2a-sqlite")]
#[tokio::test]
async fn tasks_on_sqlite_outlive_the_server() {
    use tool_executor::agent::Stores;
    let path = std::env::temp_dir().join(format!("a2a-stores-{}.db", std::process::id()));
    let _ = std::fs::remove_file(&path);
    let url = format!("sqlite://{}", path.display());

    let first = AgentServer::builder()
        .stores(Stores::sqlite(&url).await.expect("open the SQLite stores"))
        .bind_executor("127.0.0.1:0", Echo, card)
        .await
        .expect("bind")
        .spawn();
    let task = rpc(first.local_addr(), "SendMessage", text_message("kept")).await["task"].clone();
    assert_eq!(task["status"]["state"], "TASK_STATE_COMPLETED", "{task}");
    first.shutdown().await.expect("the first server stops");

    let second = AgentServer::builder()
        .stores(
            Stores::sqlite(&url)
                .await
                .expect("reopen the SQLite stores"),
        )
        .bind_executor("127.0.0.1:0", Echo, card)
        .await
        .expect("bind")
        .spawn();
    let got = rpc(second.local_addr(), "GetTask", json!({ "id": task["id"] })).await;
    assert_eq!(got["id"], task["id"]);
    assert_eq!(got["status"]["state"], "TASK_STATE_COMPLETED", "{got}");
    assert_eq!(got["status"]["message"]["parts"], json!([{"text": "kept"}]));
    second.shutdown().await.expect("the second server stops");
    let _ = std::fs::remove_file(&path);
}

#[tokio::test]
async fn configure_reaches_the_handler_builder() {
    let limit = RateLimitInterceptor::new(
        RateLimitConfig::default()
            .with_requests_per_window(2)
            .with_window_secs(300),
    )
    .expect("a rate limiter");
    let agent = AgentServer::builder()
        .configure(move |handler| handler.with_interceptor(limit))
        .bind_executor("127.0.0.1:0", Echo, card)
        .await
        .expect("bind")
        .spawn();
    for text in ["one", "two"] {
        let task = rpc(agent.local_addr(), "SendMessage", text_message(text)).await["task"].clone();
        assert_eq!(task["status"]["state"], "TASK_STATE_COMPLETED", "{task}");
    }
    let refused = rpc_error(agent.local_addr(), "SendMessage", text_message("three")).await;
    let message = refused["message"]
        .as_str()
        .unwrap_or_default()
        .to_lowercase();
    assert!(
        message.contains("rate"),
        "the third send is rate limited: {refused}"
    );
}
