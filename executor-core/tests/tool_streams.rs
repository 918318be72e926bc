//! Streaming calls of generated tools: progress, data, text and a terminal chunk (or an error
//! chunk that keeps its class and code), and the tool's future dropped with the receiver.

mod tool_support;

use std::sync::atomic::Ordering;
use std::time::Duration;

use tool_executor::ToolStreamChunk;
use tool_executor::prelude::*;
use tool_support::{SLOW_DROPPED, drain, rt, set};

#[test]
fn streams_carry_progress_data_and_a_terminal_chunk() {
    rt().block_on(async {
        let tools = set();
        let rx = tools
            .execute_stream("slow", &json!({"finish": true}), "a")
            .await
            .unwrap();
        assert_eq!(
            drain(rx).await,
            vec![
                json!({"kind": "progress", "fraction": 0.25, "message": "started"}),
                json!({"kind": "data", "data": {"partial": 1}}),
                json!({"kind": "text", "text": "some text"}),
                json!({"kind": "done", "result": "finished"}),
            ]
        );
        let rx = tools
            .execute_stream("add", &json!({"a": "x"}), "a")
            .await
            .unwrap();
        assert_eq!(
            drain(rx).await,
            vec![
                // Both arguments' failures, the first one first.
                json!({"kind": "error",
                        "message": "a: expected an integer, got \"x\"\nb: missing required argument; expected an integer",
                        "code": "invalid_arguments", "classification": "ordinary"})
            ]
        );
        let rx = tools.execute_stream("nope", &json!({}), "a").await.unwrap();
        assert_eq!(
            drain(rx).await,
            vec![json!({"kind": "error", "message": "unknown tool `nope`",
                        "code": "unknown_tool", "classification": "ordinary"})]
        );
        // A terminal failure keeps its class and code on the stream (issue 15: the chunk
        // carried only the message, so a streaming caller could not tell it from a retryable one).
        let rx = tools
            .execute_stream(
                "weather",
                &json!({"location": {"city": "Atlantis"}, "days": 1, "tags": []}),
                "a",
            )
            .await
            .unwrap();
        assert_eq!(
            drain(rx).await,
            vec![json!({"kind": "error", "message": "no such city",
                        "code": "unknown_city", "classification": "terminal"})]
        );
        // The seed's shape still parses.
        let seed: ToolStreamChunk =
            serde_json::from_value(json!({"kind": "error", "message": "x"})).unwrap();
        assert!(matches!(
            seed,
            ToolStreamChunk::Error {
                code: None,
                classification: None,
                ..
            }
        ));
    });
}

#[test]
fn dropping_the_receiver_drops_the_tool() {
    rt().block_on(async {
        SLOW_DROPPED.store(false, Ordering::SeqCst);
        let tools = set();
        let mut rx = tools.execute_stream("slow", &json!({}), "a").await.unwrap();
        let first = rx.recv().await.unwrap();
        assert!(matches!(first, ToolStreamChunk::Progress { .. }));
        drop(rx);
        for _ in 0..200 {
            if SLOW_DROPPED.load(Ordering::SeqCst) {
                return;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        panic!("the tool's future was not dropped after the receiver was");
    });
}
