//! The runtime's spans (feature `tracing`): one per call and one per attempt, with the
//! OpenTelemetry `GenAI` attribute names, read by a subscriber that records them.
#![cfg(feature = "tracing")]

mod runtime_support;

use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use runtime_support::{Script, fail, ok};
use serde_json::json;
use tool_executor::ToolFailure;
use tool_executor::runtime::{CallOptions, RetryPolicy, Runtime};
use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::{Event, Metadata, Subscriber};

#[derive(Debug, Clone, PartialEq)]
struct Span {
    name: &'static str,
    parent: Option<u64>,
    fields: BTreeMap<String, String>,
}

/// Keeps every span with its fields and parent.
#[derive(Default)]
struct Recorder {
    next: AtomicU64,
    spans: Mutex<HashMap<u64, Span>>,
    current: Mutex<Vec<u64>>,
}

struct Fields<'a>(&'a mut BTreeMap<String, String>);

impl Visit for Fields<'_> {
    fn record_debug(&mut self, field: &Field, value: &dyn fmt::Debug) {
        self.0.insert(field.name().to_owned(), format!("{value:?}"));
    }

    fn record_str(&mut self, field: &Field, value: &str) {
        self.0.insert(field.name().to_owned(), value.to_owned());
    }
}

impl Subscriber for Recorder {
    fn enabled(&self, _: &Metadata<'_>) -> bool {
        true
    }

    fn new_span(&self, attrs: &Attributes<'_>) -> Id {
        let id = self.next.fetch_add(1, Ordering::SeqCst) + 1;
        let parent = match attrs.parent() {
            Some(parent) => Some(parent.into_u64()),
            None if attrs.is_contextual() => self.current.lock().unwrap().last().copied(),
            None => None,
        };
        let mut fields = BTreeMap::new();
        attrs.record(&mut Fields(&mut fields));
        let name = attrs.metadata().name();
        self.spans.lock().unwrap().insert(
            id,
            Span {
                name,
                parent,
                fields,
            },
        );
        Id::from_u64(id)
    }

    fn record(&self, span: &Id, values: &Record<'_>) {
        let mut spans = self.spans.lock().unwrap();
        let span = spans.get_mut(&span.into_u64()).unwrap();
        values.record(&mut Fields(&mut span.fields));
    }

    fn record_follows_from(&self, _: &Id, _: &Id) {}

    fn event(&self, _: &Event<'_>) {}

    fn enter(&self, span: &Id) {
        self.current.lock().unwrap().push(span.into_u64());
    }

    fn exit(&self, _: &Id) {
        self.current.lock().unwrap().pop();
    }
}

fn fields(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect()
}

#[test]
fn one_span_per_call_and_per_attempt() {
    let recorder = std::sync::Arc::new(Recorder::default());
    let _default = tracing::subscriber::set_default(recorder.clone());
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .start_paused(true)
        .build()
        .unwrap();
    let hinted = ToolFailure::ordinary("busy")
        .with_code("busy")
        .with_retry_after(Duration::from_secs(2));
    let script = Script::repeatable("flaky", [fail(hinted), ok(json!(1))]);
    let runtime =
        Runtime::from_shared(script).with_retry(RetryPolicy::exponential(Duration::from_millis(1)));
    let down = Script::repeatable(
        "down",
        [fail(ToolFailure::terminal("gone").with_code("gone"))],
    );
    let down = Runtime::from_shared(down);
    rt.block_on(async {
        let options = CallOptions::new().with_action_id("call-9");
        runtime
            .call_with("flaky", &json!({}), options)
            .await
            .unwrap();
        down.call("down", &json!({})).await.unwrap_err();
    });

    let spans = recorder.spans.lock().unwrap().clone();
    let mut ids: Vec<_> = spans.keys().copied().collect();
    ids.sort_unstable();
    let list: Vec<Span> = ids.iter().map(|id| spans[id].clone()).collect();
    let names: Vec<_> = list.iter().map(|s| s.name).collect();
    assert_eq!(
        names,
        [
            "execute_tool",
            "tool_attempt",
            "tool_attempt",
            "execute_tool",
            "tool_attempt"
        ]
    );

    assert_eq!(
        list[0].fields,
        fields(&[
            ("otel.name", "execute_tool flaky"),
            ("gen_ai.operation.name", "execute_tool"),
            ("gen_ai.tool.name", "flaky"),
            ("gen_ai.tool.call.id", "call-9"),
            ("executor.outcome", "ok"),
            ("executor.duration_ms", "2000"),
        ])
    );
    let attempt = |n: &str, outcome: &str, code: Option<&str>, ms: &str| {
        let mut f = fields(&[
            ("gen_ai.tool.name", "flaky"),
            ("executor.attempt", n),
            ("executor.outcome", outcome),
            ("executor.duration_ms", ms),
        ]);
        if let Some(code) = code {
            f.insert("executor.failure_code".into(), code.into());
        }
        f
    };
    assert_eq!(list[1].fields, attempt("1", "failed", Some("busy"), "0"));
    assert_eq!(list[2].fields, attempt("2", "ok", None, "0"));
    assert_eq!(list[1].parent, Some(ids[0]));
    assert_eq!(list[2].parent, Some(ids[0]));

    assert_eq!(list[3].fields["error.type"], "gone");
    assert_eq!(list[3].fields["executor.failure_code"], "gone");
    assert!(!list[3].fields.contains_key("gen_ai.tool.call.id"));
    assert_eq!(list[4].parent, Some(ids[3]));
}
