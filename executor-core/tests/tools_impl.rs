//! Executors other than a plain tool set: `#[tools]` impl blocks (clonable or not), a set that
//! holds executors and a fallback, and a hand-written executor that implements only `execute`
//! and keeps the seed's delegation.

// `Counter::helper` is a method that ignores `self`, as users write them.
#![allow(clippy::unused_self)]

mod common;
mod tool_support;

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use common::assert_snapshot;
use serde_json::Value;
use tool_executor::prelude::*;
use tool_executor::tool::BoxFuture;
use tool_executor::{FailureKind, ToolSet, ToolSpec};
use tool_support::{add, call, drain, ping, rt};

/// A stateful, clonable service.
#[derive(Clone, Default)]
struct Counter {
    hits: Arc<AtomicU64>,
}

#[tools]
impl Counter {
    /// Adds to the counter.
    #[tool(name = "bump")]
    async fn bump_by(&self, #[arg(default = 1)] by: u64, ctx: &ToolContext) -> u64 {
        ctx.progress(1.0, None).await;
        self.hits.fetch_add(by, Ordering::SeqCst) + by
    }

    /// Reads the counter.
    #[tool(read_only)]
    fn read(&self) -> u64 {
        self.hits.load(Ordering::SeqCst)
    }

    /// Not a tool.
    #[allow(dead_code)]
    fn helper(&self) -> u64 {
        7
    }
}

/// A service that is not `Clone`.
struct Vault {
    secret: String,
}

#[tools]
impl Vault {
    /// Checks a guess.
    #[tool]
    fn guess(&self, word: &str) -> bool {
        word == self.secret
    }
}

#[test]
fn tools_impls_are_executors() {
    rt().block_on(async {
        let counter = Counter::default();
        assert_eq!(counter.execute("bump", &json!({})).await, Ok(json!(1)));
        assert_eq!(
            counter.execute("bump", &json!({"by": 5})).await,
            Ok(json!(6))
        );
        assert_eq!(counter.execute("read", &json!({})).await, Ok(json!(6)));
        assert_eq!(
            counter.bump_by(1, &ToolContext::new()).await,
            7,
            "methods stay callable"
        );
        let names: Vec<String> = counter.specs().iter().map(|s| s.name.clone()).collect();
        assert_eq!(names, ["bump", "read"]);
        assert!(Arc::ptr_eq(&counter.specs(), &counter.specs()));
        let list = counter.specs();
        let specs: Vec<&ToolSpec> = list.iter().map(|s| &**s).collect();
        assert_snapshot("tools_counter_specs", &serde_json::to_value(specs).unwrap());
        let failure = counter
            .execute_with_context("helper", &json!({}), ToolContext::new())
            .await
            .unwrap_err();
        assert!(failure.is_unhandled());

        let rx = counter
            .execute_stream("bump", &json!({"by": 2}), "s")
            .await
            .unwrap();
        assert_eq!(
            drain(rx).await,
            vec![
                json!({"kind": "progress", "fraction": 1.0, "message": null}),
                json!({"kind": "done", "result": 9})
            ]
        );

        let vault = Vault {
            secret: "open".to_owned(),
        };
        assert_eq!(
            vault.execute("guess", &json!({"word": "open"})).await,
            Ok(json!(true))
        );
        let refused = vault
            .execute_stream("guess", &json!({"word": "x"}), "s")
            .await
            .unwrap_err();
        assert!(refused.contains("is not `Clone`"), "{refused}");
    });
}

#[test]
fn a_tool_set_holds_executors_and_streams_them() {
    rt().block_on(async {
        let vault = Vault {
            secret: "open".to_owned(),
        };
        let tools = ToolSet::builder()
            .tool::<add>()
            .executor(vault)
            .build()
            .unwrap();
        assert_eq!(
            tools.execute("guess", &json!({"word": "open"})).await,
            Ok(json!(true))
        );
        let rx = tools
            .execute_stream("guess", &json!({"word": "shut"}), "s")
            .await
            .unwrap();
        assert_eq!(
            drain(rx).await,
            vec![json!({"kind": "done", "result": false})]
        );

        let clash = ToolSet::builder()
            .tool::<add>()
            .tool::<add>()
            .build()
            .unwrap_err();
        assert_eq!(clash.to_string(), "two tools are named `add`");
    });
}

#[test]
fn unknown_tools_go_to_the_fallback() {
    rt().block_on(async {
        let fallback: Arc<dyn ToolExecutor> = Arc::new(toolset![ping]);
        let tools = ToolSet::builder()
            .tool::<add>()
            .fallback(fallback)
            .build()
            .unwrap();
        assert_eq!(tools.execute("ping", &json!({})).await, Ok(json!("pong")));
        assert!(
            call(&tools, "nope", json!({}))
                .await
                .unwrap_err()
                .is_unhandled()
        );
    });
}

// ---- a hand-written executor keeps the seed's delegation ----

struct Legacy;

impl ToolExecutor for Legacy {
    fn execute<'a>(
        &'a self,
        tool: &'a str,
        params: &'a Value,
    ) -> BoxFuture<'a, Result<Value, String>> {
        Box::pin(async move {
            match tool {
                "echo" => Ok(params.clone()),
                "wait" => {
                    tokio::time::sleep(Duration::from_secs(30)).await;
                    Ok(Value::Null)
                }
                other => Err(format!("unknown tool: {other}")),
            }
        })
    }
}

#[test]
fn hand_written_executors_keep_the_seed_defaults() {
    rt().block_on(async {
        let legacy = Legacy;
        let empty = HashMap::new();
        let out = legacy
            .execute_classified("echo", &json!({"x": 1}), "a", None, None, 1, &empty, None)
            .await
            .unwrap();
        assert_eq!(out.output, json!({"x": 1}));
        assert!(out.state_changes.is_empty());
        let failure = legacy
            .execute_classified("zzz", &json!({}), "a", None, None, 1, &empty, None)
            .await
            .unwrap_err();
        assert!(
            !failure.is_unhandled(),
            "string errors are ordinary, never sniffed"
        );
        let refused = legacy
            .execute_stream("echo", &json!({}), "a")
            .await
            .unwrap_err();
        assert_eq!(
            refused,
            "tool 'echo': this executor does not support streaming/long-running invocation"
        );
        assert!(legacy.specs().is_empty());
        let timed_out = legacy
            .execute_with_context(
                "wait",
                &json!({}),
                ToolContext::new().with_timeout(Duration::from_millis(20)),
            )
            .await
            .unwrap_err();
        assert_eq!(timed_out.kind(), FailureKind::Timeout);
    });
}
