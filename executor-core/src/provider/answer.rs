//! Running a response's tool calls (at most [`DEFAULT_CONCURRENCY`] at once) and the
//! [`Answer`] they make, in the provider's message shape (each provider's `answer` in its
//! [`Wire`](super::wire::Wire)).

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::future::Future;
use std::iter::FusedIterator;
use std::pin::Pin;
use std::task::Poll;
use std::vec;

use serde_json::Value;

use super::definitions::{CallsError, Declared, Definitions, Provider, ToolCall};
use super::stages;
use super::waiting::{Waiting, waiting_failure};
use super::wire::object;
use crate::elicit::{Asker, Replay};
use crate::failure::ToolFailure;
use crate::tool::{Extensions, ToolContext, ToolExecution, ToolExecutor};

/// How many calls of one response run at once by default.
pub const DEFAULT_CONCURRENCY: usize = 8;

/// One answered call, borrowing the response (its call) and the [`Definitions`] (our name).
#[derive(Debug, Clone, PartialEq)]
pub struct CallOutcome<'a> {
    /// The call as sent.
    pub call: ToolCall<'a>,
    /// Our name for the tool (`None` when the provider named a tool we never declared).
    pub tool: Option<&'a str>,
    /// The output, or the failure answered to the model (for a call that waits for its
    /// user, a failure saying so, code `input_required`).
    pub result: Result<Value, ToolFailure>,
    /// The question the call waits on its user for, when it asked one (see
    /// [`Definitions::resume`]).
    pub waiting: Option<Waiting>,
}

/// The answers to one response's tool calls, in the order the calls were sent. It borrows the
/// response and the [`Definitions`] it was answered with.
#[derive(Debug, Clone)]
pub struct Answer<'a> {
    provider: Provider,
    outcomes: Outcomes<'a>,
}

/// The common response has one call: kept without a list (measured in BENCHMARKS.md §12).
#[derive(Debug, Clone)]
enum Outcomes<'a> {
    One(CallOutcome<'a>),
    Many(Vec<CallOutcome<'a>>),
}

impl PartialEq for Answer<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.provider == other.provider && self.outcomes() == other.outcomes()
    }
}

impl<'a> Answer<'a> {
    /// Each call and its outcome.
    #[must_use]
    pub fn outcomes(&self) -> &[CallOutcome<'a>] {
        match &self.outcomes {
            Outcomes::One(outcome) => std::slice::from_ref(outcome),
            Outcomes::Many(outcomes) => outcomes,
        }
    }

    /// Each call and its outcome, to change (a waiting call's reply, say).
    pub(super) fn outcomes_mut(&mut self) -> &mut [CallOutcome<'a>] {
        match &mut self.outcomes {
            Outcomes::One(outcome) => std::slice::from_mut(outcome),
            Outcomes::Many(outcomes) => outcomes,
        }
    }

    /// Whether the response asked for no tool call (the turn is over).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.outcomes().is_empty()
    }

    /// The messages (or input items) to append to the conversation, in the provider's shape,
    /// copied out of the answer; [`into_messages`](Self::into_messages) moves them instead.
    /// Empty when there was no call.
    #[must_use]
    pub fn messages(&self) -> Vec<Value> {
        let provider = self.provider;
        let parts = self
            .outcomes()
            .iter()
            .map(|o| part(provider, &o.call, o.result.as_ref().map(Cow::Borrowed)));
        if !grouped(provider) {
            parts.collect()
        } else if self.is_empty() {
            Vec::new()
        } else {
            vec![group(provider, parts.collect())]
        }
    }

    /// The messages of [`messages`](Self::messages), with the outputs moved into them rather
    /// than copied: `conversation.extend(answer.into_messages())`.
    #[must_use]
    pub fn into_messages(self) -> Messages<'a> {
        let provider = self.provider;
        let grouped = grouped(provider);
        Messages(match self.outcomes {
            Outcomes::One(outcome) => {
                let part = owned_part(provider, outcome);
                Pending::Ready(Some(if grouped {
                    group(provider, vec![part])
                } else {
                    part
                }))
            }
            Outcomes::Many(outcomes) if !grouped => {
                Pending::PerCall(provider, outcomes.into_iter())
            }
            Outcomes::Many(outcomes) if outcomes.is_empty() => Pending::Ready(None),
            Outcomes::Many(outcomes) => {
                let parts = outcomes.into_iter().map(|o| owned_part(provider, o));
                Pending::Ready(Some(group(provider, parts.collect())))
            }
        })
    }
}

/// The messages of an answer, moved out of it ([`Answer::into_messages`]).
#[derive(Debug)]
pub struct Messages<'a>(Pending<'a>);

#[derive(Debug)]
enum Pending<'a> {
    /// The only message: a single call's (OpenAI), or the one around every call's part
    /// (Anthropic, Gemini); `None` once taken or when there was no call.
    Ready(Option<Value>),
    /// One message per call (OpenAI), each built when the iterator reaches it.
    PerCall(Provider, vec::IntoIter<CallOutcome<'a>>),
}

impl Iterator for Messages<'_> {
    type Item = Value;

    fn next(&mut self) -> Option<Value> {
        match &mut self.0 {
            Pending::Ready(message) => message.take(),
            Pending::PerCall(provider, outcomes) => {
                let provider = *provider;
                outcomes.next().map(|o| owned_part(provider, o))
            }
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let len = match &self.0 {
            Pending::Ready(message) => usize::from(message.is_some()),
            Pending::PerCall(_, outcomes) => outcomes.len(),
        };
        (len, Some(len))
    }
}

impl ExactSizeIterator for Messages<'_> {}

impl FusedIterator for Messages<'_> {}

/// Whether the provider answers every call in one message of parts.
fn grouped(provider: Provider) -> bool {
    provider.wire().group.is_some()
}

/// The one message around every call's part (Anthropic, Gemini).
fn group(provider: Provider, parts: Vec<Value>) -> Value {
    let key = provider.wire().group.unwrap_or("parts");
    object([("role", "user".into()), (key, parts.into())])
}

/// [`part`] of an outcome moved out of its answer.
fn owned_part(provider: Provider, outcome: CallOutcome<'_>) -> Value {
    match outcome.result {
        Ok(value) => part(provider, &outcome.call, Ok(Cow::Owned(value))),
        Err(failure) => part(provider, &outcome.call, Err(&failure)),
    }
}

/// One call's answer: an OpenAI message or item, an Anthropic block or a Gemini part.
fn part(
    provider: Provider,
    call: &ToolCall<'_>,
    result: Result<Cow<'_, Value>, &ToolFailure>,
) -> Value {
    (provider.wire().answer)(call, result)
}

impl Definitions {
    /// The tool calls in a provider `response` (the whole response, its message or content,
    /// or the bare list of calls), borrowed from it.
    ///
    /// # Errors
    /// [`CallsError`] when the response has no place for tool calls, or a call has no name.
    pub fn calls<'a>(&self, response: &'a Value) -> Result<Vec<ToolCall<'a>>, CallsError> {
        stages::each(self.provider, response)?.collect()
    }

    /// Runs every tool call in `response` on `executor` (at most [`DEFAULT_CONCURRENCY`] at
    /// once) and returns the answers in the order the calls were sent.
    ///
    /// # Errors
    /// [`CallsError`] when the response cannot be read; a failed call is an answer, not an
    /// error.
    pub async fn answer<'a, E: ToolExecutor + ?Sized>(
        &'a self,
        executor: &E,
        response: &'a Value,
    ) -> Result<Answer<'a>, CallsError> {
        self.answer_in(executor, response, None).await
    }

    /// [`answer`](Self::answer), every call's context carrying `extensions` (the
    /// [`Principal`](crate::auth::Principal) the application serves, say), so a tool reads
    /// the same caller in a provider loop as over MCP or A2A.
    ///
    /// # Errors
    /// As [`answer`](Self::answer).
    pub async fn answer_with<'a, E: ToolExecutor + ?Sized>(
        &'a self,
        executor: &E,
        response: &'a Value,
        extensions: &Extensions,
    ) -> Result<Answer<'a>, CallsError> {
        self.answer_in(executor, response, Some(extensions)).await
    }

    async fn answer_in<'a, E: ToolExecutor + ?Sized>(
        &'a self,
        executor: &E,
        response: &'a Value,
        extensions: Option<&Extensions>,
    ) -> Result<Answer<'a>, CallsError> {
        let mut each = stages::each(self.provider, response)?;
        let outcomes = match (each.next().transpose()?, each.next()) {
            (None, _) => Outcomes::Many(Vec::new()),
            (Some(call), None) => Outcomes::One(self.answer_one(executor, call, extensions).await),
            (Some(first), Some(second)) => {
                let calls = [Ok(first), second].into_iter().chain(each);
                let calls = calls.collect::<Result<_, _>>()?;
                let limit = DEFAULT_CONCURRENCY;
                Outcomes::Many(self.run_all(executor, calls, limit, extensions).await)
            }
        };
        Ok(Answer {
            provider: self.provider,
            outcomes,
        })
    }

    /// Runs `calls` on `executor`, at most `limit` at once (at least one).
    pub async fn answer_calls<'a, E: ToolExecutor + ?Sized>(
        &'a self,
        executor: &E,
        mut calls: Vec<ToolCall<'a>>,
        limit: usize,
    ) -> Answer<'a> {
        let outcomes = if calls.len() == 1
            && let Some(call) = calls.pop()
        {
            Outcomes::One(self.answer_one(executor, call, None).await)
        } else {
            Outcomes::Many(self.run_all(executor, calls, limit, None).await)
        };
        Answer {
            provider: self.provider,
            outcomes,
        }
    }

    /// A single call, awaited in place with no list of boxed futures around it (measured in
    /// BENCHMARKS.md §12).
    async fn answer_one<'a, E: ToolExecutor + ?Sized>(
        &'a self,
        executor: &E,
        call: ToolCall<'a>,
        extensions: Option<&Extensions>,
    ) -> CallOutcome<'a> {
        let declared = self.find(call.name);
        let result = run(executor, &call, declared, extensions, BTreeMap::new()).await;
        outcome(call, declared, result)
    }

    /// Several calls, at most `limit` at once, answered in the order sent.
    async fn run_all<'a, E: ToolExecutor + ?Sized>(
        &'a self,
        executor: &E,
        calls: Vec<ToolCall<'a>>,
        limit: usize,
        extensions: Option<&Extensions>,
    ) -> Vec<CallOutcome<'a>> {
        let calls = calls
            .into_iter()
            .map(|call| (call, BTreeMap::new()))
            .collect();
        run_all_in(self, executor, calls, limit, extensions).await
    }
}

/// Runs `calls`, each with the answers it already has (none on a first run), at most
/// `limit` at once, answered in the order given.
pub(super) async fn run_all_in<'a, E: ToolExecutor + ?Sized>(
    defs: &'a Definitions,
    executor: &E,
    calls: Vec<(ToolCall<'a>, BTreeMap<String, Value>)>,
    limit: usize,
    extensions: Option<&Extensions>,
) -> Vec<CallOutcome<'a>> {
    let declared: Vec<Option<&Declared>> = calls.iter().map(|(c, _)| defs.find(c.name)).collect();
    let runs = calls
        .iter()
        .zip(&declared)
        .map(|((call, answers), declared)| {
            let run: Pin<Box<dyn Future<Output = _> + Send + '_>> =
                Box::pin(run(executor, call, *declared, extensions, answers.clone()));
            run
        });
    let results = bounded(runs.collect(), limit.max(1)).await;
    calls
        .into_iter()
        .zip(declared)
        .zip(results)
        .map(|(((call, _), declared), result)| outcome(call, declared, result))
        .collect()
}

fn outcome<'a>(
    call: ToolCall<'a>,
    declared: Option<&'a Declared>,
    (result, waiting): Ran,
) -> CallOutcome<'a> {
    CallOutcome {
        tool: declared.map(|d| d.name.as_str()),
        call,
        result,
        waiting,
    }
}

/// A call's result and, when it asked its user, what it waits for.
type Ran = (Result<Value, ToolFailure>, Option<Waiting>);

/// One call through `execute_with_context`, its arguments as we declared them
/// ([`Declared::restore`]), with `answers` to the questions it asked before. A question not
/// answered yet ends the call of a tool that may ask ([`Declared::asks_user`]): it waits
/// ([`Waiting`]) unless the application attached its own [`Asker`] to answer in place.
async fn run<E: ToolExecutor + ?Sized>(
    executor: &E,
    call: &ToolCall<'_>,
    declared: Option<&Declared>,
    extensions: Option<&Extensions>,
    answers: BTreeMap<String, Value>,
) -> Ran {
    let Some(declared) = declared else {
        return (Err(ToolFailure::unknown_tool(call.name)), None);
    };
    let arguments: &Value = match &call.arguments {
        Ok(arguments) => arguments,
        Err(failure) => return (Err(failure.clone()), None),
    };
    let restored;
    let arguments = match arguments {
        Value::Object(args) if declared.rewrites(args) => {
            restored = Value::Object(declared.restore(args));
            &restored
        }
        other => other,
    };
    let mut ctx = ToolContext::new();
    if let Some(id) = call.id {
        ctx = ctx.with_action_id(id);
    }
    if let Some(extensions) = extensions {
        ctx = ctx.with_extensions(extensions.clone());
    }
    // A tool that cannot ask, or a call whose application answers in place, runs as is.
    if !declared.asks_user || ctx.can_elicit() {
        let run = executor.execute_with_context(&declared.name, arguments, ctx);
        return (run.await.map(ToolExecution::into_output), None);
    }
    let replay = Replay::new(answers);
    let ctx = ctx.with_extension::<Asker>(replay.asker());
    let run = executor.execute_with_context(&declared.name, arguments, ctx);
    match replay.run(run).await {
        Ok(result) => (result.map(ToolExecution::into_output), None),
        Err(asked) => {
            let waiting = Waiting::new(asked, replay.answers().clone());
            (
                Err(waiting_failure(&declared.name, &waiting)),
                Some(waiting),
            )
        }
    }
}

/// Runs `futures`, at most `limit` at once, and returns their outputs in order.
async fn bounded<T>(
    futures: Vec<Pin<Box<dyn Future<Output = T> + Send + '_>>>,
    limit: usize,
) -> Vec<T> {
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
