//! The A2A message data part `ToolAgent` reads (`{"tool": NAME, "arguments": {…}}`), through
//! the agent's real `execute`, on arbitrary messages: any mix of text and data parts, data
//! parts that are any JSON or the call shape around fuzzed names and arguments (numbers as
//! doubles too, as protobuf clients send them).
//!
//! Every message must end its task (the last event a terminal status update) without a panic
//! and without an error from `execute`: bad input fails the task, it never breaks the agent.
#![no_main]

use std::future::Future;
use std::pin::Pin;
use std::sync::{LazyLock, Mutex};

use libfuzzer_sys::arbitrary::{Result, Unstructured};
use libfuzzer_sys::fuzz_target;
use serde_json::json;
use tool_executor::agent::server::streaming::EventQueueWriter;
use tool_executor::agent::types::error::A2aResult;
use tool_executor::agent::types::events::StreamResponse;
use tool_executor::agent::types::message::{Message, Part};
use tool_executor::agent::types::task::TaskId;
use tool_executor::agent::{AgentExecutor, RequestContext, ToolAgent};
use tool_executor::prelude::*;

#[path = "common/mod.rs"]
mod common;

use common::{RUNTIME, add, json};

/// Counts to `to` (at most 8), streaming progress and text.
#[tool]
async fn count(to: u8, ctx: &ToolContext) -> u8 {
    let to = to.min(8);
    for i in 1..=to {
        ctx.progress(f64::from(i) / f64::from(to), None).await;
        ctx.text(i.to_string()).await;
    }
    to
}

/// Reports progress from a sync body.
#[tool]
fn tick(#[arg(default)] label: String, ctx: &ToolContext) -> String {
    let _ = ctx.try_progress(1.0, label.clone());
    label
}

const KEYS: &[&str] = &[
    "tool",
    "arguments",
    "add",
    "count",
    "tick",
    "a",
    "b",
    "to",
    "label",
];

static AGENT: LazyLock<ToolAgent> = LazyLock::new(|| ToolAgent::new(toolset![add, count, tick]));

/// Keeps every event the agent writes.
#[derive(Default)]
struct Recorder(Mutex<Vec<StreamResponse>>);

impl EventQueueWriter for Recorder {
    fn write<'a>(
        &'a self,
        event: StreamResponse,
    ) -> Pin<Box<dyn Future<Output = A2aResult<()>> + Send + 'a>> {
        self.0.lock().unwrap().push(event);
        Box::pin(async { Ok(()) })
    }

    fn close<'a>(&'a self) -> Pin<Box<dyn Future<Output = A2aResult<()>> + Send + 'a>> {
        Box::pin(async { Ok(()) })
    }
}

fn part(u: &mut Unstructured<'_>) -> Result<Part> {
    Ok(match u.choose_index(4)? {
        0 => Part::text(u.arbitrary::<String>()?),
        1 => Part::data(json::value(u, KEYS)?),
        _ => {
            let tool = if u.ratio(3, 4)? {
                json!(*u.choose(&["add", "count", "tick"])?)
            } else {
                json::value(u, KEYS)?
            };
            let arguments = if u.ratio(3, 4)? {
                json::object(u, KEYS)?
            } else {
                json::value(u, KEYS)?
            };
            Part::data(json!({"tool": tool, "arguments": arguments}))
        }
    })
}

fn run(u: &mut Unstructured<'_>) -> Result<()> {
    let n = u.int_in_range(0..=3)?;
    let parts = (0..n).map(|_| part(u)).collect::<Result<Vec<_>>>()?;
    let ctx = RequestContext::new(
        Message::user("m-1", parts),
        TaskId::new("t-1"),
        "c-1".to_owned(),
    );
    let recorder = Recorder::default();
    RUNTIME
        .block_on(AGENT.execute(&ctx, &recorder))
        .expect("bad input fails the task, not `execute`");
    let events = recorder.0.into_inner().unwrap();
    match events.last() {
        Some(StreamResponse::StatusUpdate(update)) => {
            assert!(update.status.state.is_terminal(), "{update:?}");
        }
        other => panic!("the task did not end: last event {other:?}"),
    }
    Ok(())
}

fuzz_target!(|data: &[u8]| {
    let _ = run(&mut Unstructured::new(data));
});
