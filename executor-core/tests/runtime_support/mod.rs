//! A scripted executor for the runtime tests: each attempt plays the next step of a script
//! and records what its context said.

#![allow(dead_code)] // each test file uses its own part of the helper

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Value, json};
use tokio::time::Instant;
use tool_executor::tool::{BoxFuture, SpecList, ToolAnnotations, ToolExecution, ToolExecutor};
use tool_executor::{ToolContext, ToolFailure, ToolSpec};

/// What one attempt does.
#[derive(Clone)]
pub enum Step {
    /// Fails with this failure.
    Fail(ToolFailure),
    /// Answers with this output and these state changes.
    Answer(Value, HashMap<String, Value>),
    /// Sleeps, then plays the inner step.
    After(Duration, Box<Step>),
    /// Sends `n` progress chunks one second apart, then answers `"done"`.
    Progress(u32),
    /// Sends `n` text chunks at once, then answers `"done"`.
    Text(u32),
    /// Sends `n` text chunks at once, then plays the inner step.
    TextThen(u32, Box<Step>),
}

pub fn ok(output: Value) -> Step {
    Step::Answer(output, HashMap::new())
}

pub fn fail(failure: ToolFailure) -> Step {
    Step::Fail(failure)
}

pub fn after(delay: Duration, step: Step) -> Step {
    Step::After(delay, Box::new(step))
}

/// What an attempt saw.
#[derive(Debug, Clone)]
pub struct Seen {
    pub tool: String,
    pub attempt: u32,
    pub key: Option<String>,
    pub action_id: String,
    pub started: Instant,
    pub deadline: Option<Instant>,
    pub params: Value,
}

/// An executor serving one tool from a script; when the script runs out, the last step repeats.
pub struct Script {
    spec: SpecList,
    listed: bool,
    steps: Mutex<VecDeque<Step>>,
    pub seen: Mutex<Vec<Seen>>,
    running: AtomicUsize,
    pub most_running: AtomicUsize,
    pub dropped: AtomicUsize,
}

impl Script {
    pub fn new(name: &str, steps: impl IntoIterator<Item = Step>) -> Arc<Self> {
        Self::build(name, ToolAnnotations::default(), true, steps)
    }

    /// An executor whose one tool says it is idempotent: safe to repeat, so the runtime
    /// retries it (a tool without hints is not retried unless the policy opts in).
    pub fn repeatable(name: &str, steps: impl IntoIterator<Item = Step>) -> Arc<Self> {
        let hints = ToolAnnotations {
            idempotent: Some(true),
            ..ToolAnnotations::default()
        };
        Self::build(name, hints, true, steps)
    }

    pub fn with_hints(
        name: &str,
        hints: ToolAnnotations,
        steps: impl IntoIterator<Item = Step>,
    ) -> Arc<Self> {
        Self::build(name, hints, true, steps)
    }

    /// An executor whose one tool declares `schema` as its output schema.
    pub fn with_output_schema(
        name: &str,
        schema: Value,
        steps: impl IntoIterator<Item = Step>,
    ) -> Arc<Self> {
        let script = Self::build(name, ToolAnnotations::default(), true, steps);
        let spec = script.spec[0].as_ref().clone().with_output_schema(schema);
        Arc::new(Self {
            spec: vec![Arc::new(spec)].into(),
            ..Arc::into_inner(script).expect("just built")
        })
    }

    /// An executor that lists no tools and serves any name.
    pub fn unlisted(steps: impl IntoIterator<Item = Step>) -> Arc<Self> {
        Self::build("any", ToolAnnotations::default(), false, steps)
    }

    fn build(
        name: &str,
        hints: ToolAnnotations,
        listed: bool,
        steps: impl IntoIterator<Item = Step>,
    ) -> Arc<Self> {
        let spec =
            ToolSpec::new(name, "scripted", json!({"type": "object"})).with_annotations(hints);
        Arc::new(Self {
            spec: vec![Arc::new(spec)].into(),
            listed,
            steps: Mutex::new(steps.into_iter().collect()),
            seen: Mutex::new(Vec::new()),
            running: AtomicUsize::new(0),
            most_running: AtomicUsize::new(0),
            dropped: AtomicUsize::new(0),
        })
    }

    pub fn attempts(&self) -> Vec<u32> {
        self.seen
            .lock()
            .unwrap()
            .iter()
            .map(|s| s.attempt)
            .collect()
    }

    pub fn starts(&self) -> Vec<Instant> {
        self.seen
            .lock()
            .unwrap()
            .iter()
            .map(|s| s.started)
            .collect()
    }

    fn next_step(&self) -> Step {
        let mut steps = self.steps.lock().unwrap();
        if steps.len() > 1 {
            steps.pop_front().unwrap()
        } else {
            steps.front().cloned().expect("a script with no steps")
        }
    }

    async fn play(&self, step: Step, ctx: &ToolContext) -> Result<ToolExecution, ToolFailure> {
        let mut step = step;
        let step = loop {
            step = match step {
                Step::After(delay, inner) => {
                    tokio::time::sleep(delay).await;
                    *inner
                }
                Step::TextThen(n, inner) => {
                    for i in 0..n {
                        ctx.text(format!("text {i}")).await;
                    }
                    *inner
                }
                other => break other,
            };
        };
        match step {
            Step::Fail(failure) => Err(failure),
            Step::Answer(output, state_changes) => Ok(ToolExecution {
                output,
                state_changes,
            }),
            Step::Progress(n) => {
                for i in 1..=n {
                    tokio::time::sleep(Duration::from_secs(1)).await;
                    ctx.progress(f64::from(i) / f64::from(n), format!("step {i}"))
                        .await;
                }
                Ok(ToolExecution::output_only(json!("done")))
            }
            Step::Text(n) => {
                for i in 0..n {
                    ctx.text(format!("text {i}")).await;
                }
                Ok(ToolExecution::output_only(json!("done")))
            }
            Step::After(..) | Step::TextThen(..) => unreachable!("unwrapped above"),
        }
    }
}

/// Counts a running attempt, and a dropped one (an attempt that did not run to its end).
struct Running<'a> {
    script: &'a Script,
    finished: bool,
}

impl Drop for Running<'_> {
    fn drop(&mut self) {
        self.script.running.fetch_sub(1, Ordering::SeqCst);
        if !self.finished {
            self.script.dropped.fetch_add(1, Ordering::SeqCst);
        }
    }
}

impl ToolExecutor for Script {
    fn execute<'a>(
        &'a self,
        tool: &'a str,
        params: &'a Value,
    ) -> BoxFuture<'a, Result<Value, String>> {
        let call = self.execute_with_context(tool, params, ToolContext::new());
        Box::pin(async move { call.await.map(|e| e.output).map_err(|f| f.to_string()) })
    }

    fn execute_with_context<'a>(
        &'a self,
        tool: &'a str,
        params: &'a Value,
        ctx: ToolContext,
    ) -> BoxFuture<'a, Result<ToolExecution, ToolFailure>> {
        Box::pin(async move {
            if self.listed && tool != self.spec[0].name {
                return Err(ToolFailure::unknown_tool(tool));
            }
            self.seen.lock().unwrap().push(Seen {
                tool: tool.to_owned(),
                attempt: ctx.attempt(),
                key: ctx.idempotency_key().map(str::to_owned),
                action_id: ctx.action_id().to_owned(),
                started: Instant::now(),
                deadline: ctx.deadline(),
                params: params.clone(),
            });
            let now = self.running.fetch_add(1, Ordering::SeqCst) + 1;
            self.most_running.fetch_max(now, Ordering::SeqCst);
            let mut running = Running {
                script: self,
                finished: false,
            };
            let outcome = self.play(self.next_step(), &ctx).await;
            running.finished = true;
            outcome
        })
    }

    fn specs(&self) -> SpecList {
        if self.listed {
            Arc::clone(&self.spec)
        } else {
            Vec::new().into()
        }
    }
}
