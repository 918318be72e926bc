//! Running a response's tool calls and answering them in the provider's message shape.
//!
//! | provider | answer (appended to the conversation) |
//! |---|---|
//! | OpenAI Chat | one `{"role":"tool","tool_call_id","content"}` message per call |
//! | OpenAI Responses | one `{"type":"function_call_output","call_id","output"}` item per call |
//! | Anthropic | one user message of `{"type":"tool_result","tool_use_id","content","is_error"}` blocks |
//! | Gemini | one user content of `{"functionResponse":{name,id,response}}` parts |
//!
//! A result is the output (a string as it is, anything else as JSON text; for Gemini the value
//! under `response.output`). A failure is `{"error": {"message", "code", "kind",
//! "classification", "retryable", "retry_after_ms"?, "data"?}}`, from the failure table
//! ([`failure::transport`](crate::failure::transport)): `retryable` tells the model whether
//! calling again can help, and a redacted failure's text and data stay withheld. A model is a
//! caller that can change its arguments, so an ordinary invalid-arguments failure is retryable
//! for it, although a runtime never resends the same call ([`for_retry`] says stop).

use std::future::Future;
use std::pin::Pin;
use std::task::Poll;

use serde_json::{Map, Value, json};

use super::calls::{self, CallsError, ToolCall};
use super::{Declared, Definitions, Provider};
use crate::failure::transport::{RetryDecision, for_retry, structured};
use crate::tool::{ToolContext, ToolExecution, ToolExecutor};
use crate::{FailureKind, ToolFailure};

/// How many calls of one response run at once by default.
pub const DEFAULT_CONCURRENCY: usize = 8;

/// One answered call.
#[derive(Debug, Clone, PartialEq)]
pub struct CallOutcome {
    /// The call as sent.
    pub call: ToolCall,
    /// Our name for the tool (`None` when the provider named a tool we never declared).
    pub tool: Option<String>,
    /// The output, or the failure answered to the model.
    pub result: Result<Value, ToolFailure>,
}

/// The answers to one response's tool calls, in the order the calls were sent.
#[derive(Debug, Clone, PartialEq)]
pub struct Answer {
    provider: Provider,
    outcomes: Vec<CallOutcome>,
}

impl Answer {
    /// Each call and its outcome.
    #[must_use]
    pub fn outcomes(&self) -> &[CallOutcome] {
        &self.outcomes
    }

    /// Whether the response asked for no tool call (the turn is over).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.outcomes.is_empty()
    }

    /// The messages (or input items) to append to the conversation, in the provider's shape.
    /// Empty when there was no call.
    #[must_use]
    pub fn messages(&self) -> Vec<Value> {
        let each = self.outcomes.iter();
        match self.provider {
            Provider::OpenAiChat => each
                .map(|o| json!({"role": "tool", "tool_call_id": o.call.id, "content": text(&o.result)}))
                .collect(),
            Provider::OpenAiResponses => each
                .map(|o| json!({"type": "function_call_output", "call_id": o.call.id, "output": text(&o.result)}))
                .collect(),
            _ if self.outcomes.is_empty() => Vec::new(),
            Provider::Anthropic | Provider::AnthropicStrict => {
                let blocks: Vec<Value> = each
                    .map(|o| {
                        json!({"type": "tool_result", "tool_use_id": o.call.id,
                               "content": text(&o.result), "is_error": o.result.is_err()})
                    })
                    .collect();
                vec![json!({"role": "user", "content": blocks})]
            }
            Provider::Gemini | Provider::GeminiJsonSchema | Provider::Mcp => {
                let parts: Vec<Value> = each.map(function_response).collect();
                vec![json!({"role": "user", "parts": parts})]
            }
        }
    }
}

/// A failure as the model reads it.
fn failure_body(failure: &ToolFailure) -> Value {
    let mut body = Map::new();
    body.insert("message".into(), failure.message().into());
    if let Value::Object(fields) = structured(failure) {
        body.extend(fields);
    }
    let retryable = matches!(for_retry(failure), RetryDecision::Retry { .. })
        || (failure.kind() == FailureKind::InvalidArguments && !failure.is_terminal());
    body.insert("retryable".into(), retryable.into());
    json!({ "error": body })
}

fn text(result: &Result<Value, ToolFailure>) -> String {
    match result {
        Ok(Value::String(s)) => s.clone(),
        Ok(other) => other.to_string(),
        Err(failure) => failure_body(failure).to_string(),
    }
}

fn function_response(outcome: &CallOutcome) -> Value {
    let response = match &outcome.result {
        Ok(value) => json!({ "output": value }),
        Err(failure) => failure_body(failure),
    };
    let mut call = Map::new();
    call.insert("name".into(), outcome.call.name.as_str().into());
    if let Some(id) = &outcome.call.id {
        call.insert("id".into(), id.as_str().into());
    }
    call.insert("response".into(), response);
    json!({ "functionResponse": call })
}

impl Definitions {
    /// The tool calls in a provider `response` (the whole response, its message or content,
    /// or the bare list of calls).
    ///
    /// # Errors
    /// [`CallsError`] when the response has no place for tool calls, or a call has no name.
    pub fn calls(&self, response: &Value) -> Result<Vec<ToolCall>, CallsError> {
        calls::parse(self.provider, response)
    }

    /// Runs every tool call in `response` on `executor` (at most [`DEFAULT_CONCURRENCY`] at
    /// once) and returns the answers in the order the calls were sent.
    ///
    /// # Errors
    /// [`CallsError`] when the response cannot be read; a failed call is an answer, not an
    /// error.
    pub async fn answer<E: ToolExecutor + ?Sized>(
        &self,
        executor: &E,
        response: &Value,
    ) -> Result<Answer, CallsError> {
        let calls = self.calls(response)?;
        Ok(self
            .answer_calls(executor, calls, DEFAULT_CONCURRENCY)
            .await)
    }

    /// Runs `calls` on `executor`, at most `limit` at once (at least one).
    pub async fn answer_calls<E: ToolExecutor + ?Sized>(
        &self,
        executor: &E,
        calls: Vec<ToolCall>,
        limit: usize,
    ) -> Answer {
        let declared: Vec<Option<&Declared>> = calls.iter().map(|c| self.find(&c.name)).collect();
        let runs = calls
            .iter()
            .zip(&declared)
            .map(|(call, declared)| run(executor, call, *declared));
        let results = bounded(runs.collect(), limit.max(1)).await;
        let outcomes = calls
            .into_iter()
            .zip(declared)
            .zip(results)
            .map(|((call, declared), result)| CallOutcome {
                tool: declared.map(|d| d.name.clone()),
                call,
                result,
            })
            .collect();
        Answer {
            provider: self.provider,
            outcomes,
        }
    }
}

/// One call through `execute_with_context`, its arguments as we declared them
/// ([`Declared::restore`]).
fn run<'a, E: ToolExecutor + ?Sized>(
    executor: &'a E,
    call: &'a ToolCall,
    declared: Option<&'a Declared>,
) -> Pin<Box<dyn Future<Output = Result<Value, ToolFailure>> + Send + 'a>> {
    Box::pin(async move {
        let Some(declared) = declared else {
            return Err(ToolFailure::unknown_tool(&call.name));
        };
        let arguments = call.arguments.as_ref().map_err(Clone::clone)?;
        let restored;
        let arguments = match arguments {
            Value::Object(args) if declared.rewrites(args) => {
                restored = Value::Object(declared.restore(args));
                &restored
            }
            other => other,
        };
        let mut ctx = ToolContext::new();
        if let Some(id) = &call.id {
            ctx = ctx.with_action_id(id.as_str());
        }
        let run = executor.execute_with_context(&declared.name, arguments, ctx);
        run.await.map(|ToolExecution { output, .. }| output)
    })
}

/// Runs `futures`, at most `limit` at once, and returns their outputs in order.
async fn bounded<T>(
    mut futures: Vec<Pin<Box<dyn Future<Output = T> + Send + '_>>>,
    limit: usize,
) -> Vec<T> {
    if futures.len() == 1
        && let Some(only) = futures.pop()
    {
        return vec![only.await];
    }
    let mut outputs: Vec<Option<T>> = futures.iter().map(|_| None).collect();
    let mut waiting = futures.into_iter().enumerate();
    let mut running = Vec::with_capacity(limit);
    std::future::poll_fn(|cx| {
        let mut i = 0;
        loop {
            while running.len() < limit {
                match waiting.next() {
                    Some(next) => running.push(next),
                    None => break,
                }
            }
            let Some((index, future)) = running.get_mut(i) else {
                break;
            };
            if let Poll::Ready(output) = future.as_mut().poll(cx) {
                outputs[*index] = Some(output);
                drop(running.swap_remove(i));
            } else {
                i += 1;
            }
        }
        if running.is_empty() {
            Poll::Ready(())
        } else {
            Poll::Pending
        }
    })
    .await;
    outputs.into_iter().flatten().collect()
}
