//! `ToolAgent`: any tool executor served as an A2A agent, one skill per tool.

use std::collections::BTreeMap;
use std::pin::pin;
use std::sync::Arc;

use a2a_protocol_server::{AgentExecutor, EventQueueWriter, RequestContext};
use a2a_protocol_types::agent_card::{AgentCapabilities, AgentCard, AgentProvider, AgentSkill};
use a2a_protocol_types::error::A2aResult;
use a2a_protocol_types::extensions::AgentExtension;
use a2a_protocol_types::failure::FailureClass;
use a2a_protocol_types::idempotency::key_of;
use a2a_protocol_types::message::{Message, Part, PartContent};
use a2a_protocol_types::task::TaskState;
use serde_json::{Map, Value, json};
use tokio::sync::{mpsc, oneshot};

use super::ask::{Pending, Resume, Round, approval_request, question_message, resume};
use super::card::Agent;
use super::emitter::Emitter;
use super::example::example_call;
use super::queue::{TaskQueue, run_execute};
use super::running::RunningCalls;
use crate::auth::Principal;
use crate::elicit::Asked;
use crate::failure::ToolFailure;
use crate::runtime::{Handle, HandleId, is_i_json};
use crate::schema::dialect::integral_floats_to_integers;
use crate::tool::{
    BoxFuture, Extensions, RequestHeaders, STREAM_CAPACITY, ToolAnnotations, ToolContext,
    ToolExecution, ToolExecutor, ToolSpec, ToolStreamChunk,
};

/// The agent-card extension that carries each tool-skill's spec beyond what a skill holds. A2A
/// 1.0 skills have no metadata field, so it rides in `capabilities.extensions[].params` as
/// `{"skills": {"<skill id>": {"inputSchema": …, "outputSchema": …, "annotations": …,
/// "failureCodes": […], "timeoutMs": n}}}`: the schemas, every hint as given (MCP's names,
/// `{"idempotentHint": false, …}`, the negative ones included, which skill tags cannot say),
/// the failure codes and the tool's own time limit, each left out when the tool has none. The
/// extension is not required, so clients that do not know it ignore it.
pub const TOOL_SCHEMAS_EXTENSION: &str = "urn:executor:a2a:tool-schemas:v1";

/// The data part's metadata key for the caller's 1-based attempt number (an integer), which
/// [`ToolAgent`] gives the tool as [`ToolContext::attempt`] and
/// [`A2aToolExecutor`](crate::agent::A2aToolExecutor) sends from its caller's context. The
/// same name as the MCP request `_meta` key.
pub const ATTEMPT_METADATA: &str = "executor/attempt";

/// The data part's metadata key for the caller's idempotency key (a string), which
/// [`ToolAgent`] gives the tool as [`ToolContext::idempotency_key`] and
/// [`A2aToolExecutor`](crate::agent::A2aToolExecutor) sends from its caller's context: the
/// same key on every attempt of one call, unlike the A2A message id. Not the A2A client key
/// (`a2a-rust.com/idempotency-key`): with that one the server answers a resend with the first
/// send's task, failed or not, so a retry would never run again.
pub const IDEMPOTENCY_KEY_METADATA: &str = "executor/idempotencyKey";

/// The artifact a tool's result is written to: one data part, or, when the result holds a
/// number an A2A data part cannot carry exactly (an integer beyond ±2^53: A2A's data parts are
/// protobuf `Struct`s, whose numbers are doubles), one text part of media type
/// [`EXACT_JSON_MEDIA_TYPE`] holding the result's exact JSON text.
pub const RESULT_ARTIFACT: &str = "result";

/// The media type of a `result` text part that holds the result as exact JSON text, which
/// [`A2aToolExecutor`](crate::agent::A2aToolExecutor) parses back into the same value.
pub const EXACT_JSON_MEDIA_TYPE: &str = "application/json";

/// The artifact a streaming tool's text and data chunks are appended to.
pub const OUTPUT_ARTIFACT: &str = "output";

/// A tool executor served as an A2A agent: every tool is a skill.
///
/// A message whose data part is `{"tool": NAME, "arguments": {…}}` runs the tool:
/// - the task goes `working` first (so a streaming client learns its id, and can cancel it,
///   before the tool reports anything);
/// - its progress becomes `working` status updates (`{"progress": fraction}` in the metadata),
///   its streamed text and data chunks of the `output` artifact;
/// - its result the `result` artifact (one data part), and the task `completed`;
/// - a failure fails the task with the failure's message, code and class (the A2A row of
///   [`failure::transport`](crate::failure::transport)); a cancelled task cancels the tool.
///
/// The tool sees as [`ToolContext::idempotency_key`] the caller's key (the data part's
/// metadata [`IDEMPOTENCY_KEY_METADATA`], which [`A2aToolExecutor`](crate::agent::A2aToolExecutor)
/// sends on every attempt of one call), else the send's client idempotency key (message
/// metadata `a2a-rust.com/idempotency-key`), else the A2A message id: a client that retries a
/// send resends the same message, so a tool with a side effect can recognise the retry and not
/// act twice, on any replica. Its [`ToolContext::attempt`] is the data part's
/// [`ATTEMPT_METADATA`] (1 without it).
///
/// A message without such a data part fails the task with an error saying what to send.
/// Each skill's example in the card is such a call, with a sample value for every required
/// argument (left out when the schema admits no sure sample, such as a `pattern`).
///
/// ```
/// use tool_executor::prelude::*;
/// use tool_executor::agent::{Agent, ToolAgent};
///
/// /// Adds two numbers.
/// #[tool]
/// fn add(a: i64, b: i64) -> i64 { a + b }
///
/// let agent = ToolAgent::new(toolset![add]).with_name("Calculator");
/// let card = agent.card("http://127.0.0.1:3000");
/// assert_eq!(card.skills[0].id, "add");
/// assert_eq!(card.skills[0].description, "Adds two numbers.");
/// assert!(card.validate().is_ok());
/// ```
pub struct ToolAgent {
    tools: Arc<dyn ToolExecutor>,
    name: String,
    description: Option<String>,
    version: String,
    provider: Option<AgentProvider>,
    /// Lower-case names of the HTTP headers passed to tools.
    forwarded_headers: Vec<String>,
    /// The calls running for tasks, as runtime handles.
    running: RunningCalls,
    /// The bearer check (`with_oauth`).
    #[cfg(feature = "oauth")]
    oauth: Option<crate::auth::ResourceServer>,
}

impl std::fmt::Debug for ToolAgent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ToolAgent")
            .field("name", &self.name)
            .field(
                "tools",
                &self
                    .tools
                    .specs()
                    .iter()
                    .map(|s| s.name.clone())
                    .collect::<Vec<_>>(),
            )
            .finish_non_exhaustive()
    }
}

impl ToolAgent {
    /// Serves `tools` (a [`ToolSet`](crate::tool::ToolSet), a `#[tools]` executor, any executor that
    /// lists its [`specs`](ToolExecutor::specs)).
    #[must_use]
    pub fn new(tools: impl ToolExecutor + 'static) -> Self {
        Self::shared(Arc::new(tools))
    }

    /// Like [`new`](Self::new) for an executor that is already shared.
    #[must_use]
    pub fn shared(tools: Arc<dyn ToolExecutor>) -> Self {
        Self {
            tools,
            name: "tools".to_owned(),
            description: None,
            version: env!("CARGO_PKG_VERSION").to_owned(),
            provider: None,
            forwarded_headers: Vec::new(),
            running: RunningCalls::default(),
            #[cfg(feature = "oauth")]
            oauth: None,
        }
    }

    /// Makes the agent an OAuth 2.1 protected resource checked by `oauth`: binding it
    /// refuses every call without a good bearer token (401 with `WWW-Authenticate`, before
    /// any task exists), serves the RFC 9728 metadata beside the card and declares a bearer
    /// scheme in the card; each tool's context carries the token's
    /// [`Principal`](crate::auth::Principal), and a tool whose
    /// [`scopes`](crate::tool::ToolSpec::scopes) the token lacks fails its task with code
    /// `insufficient_scope` before its body runs.
    #[cfg(feature = "oauth")]
    #[cfg_attr(docsrs, doc(cfg(feature = "oauth")))]
    #[must_use]
    pub fn with_oauth(mut self, oauth: crate::auth::ResourceServer) -> Self {
        self.oauth = Some(oauth);
        self
    }

    /// Limits tool calls per caller and per tool (see
    /// [`RateLimit`](crate::runtime::RateLimit)): a refused call fails its task with code
    /// `rate_limited` and its retry hint, before the tool runs. Callers are told apart by the
    /// identity the server authenticated (`with_oauth`).
    #[must_use]
    pub fn with_rate_limit(mut self, limit: crate::runtime::RateLimit) -> Self {
        self.tools = Arc::new(crate::runtime::RateLimited::from_shared(self.tools, limit));
        self
    }

    /// Passes the named HTTP request headers to tools, as a
    /// [`RequestHeaders`](crate::tool::RequestHeaders) extension of their context (default:
    /// none; names match in any case).
    #[must_use]
    pub fn with_forwarded_headers<I, S>(mut self, names: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        self.forwarded_headers = names
            .into_iter()
            .map(|name| name.as_ref().to_ascii_lowercase())
            .collect();
        self
    }

    /// The token's principal, when it may call `tool` (the interceptor has checked the token
    /// already; the resource server remembers it, so this is a lookup).
    #[cfg(feature = "oauth")]
    async fn authorize(
        &self,
        oauth: &crate::auth::ResourceServer,
        ctx: &RequestContext,
        tool: &str,
    ) -> Result<Arc<Principal>, crate::failure::ToolFailure> {
        let principal = oauth
            .authenticate(ctx.http_header("authorization"))
            .await
            .map_err(|error| {
                crate::failure::ToolFailure::terminal(error.to_string())
                    .with_code("unauthenticated")
            })?;
        let specs = self.tools.specs();
        if let Some(spec) = specs.iter().find(|s| s.name == tool)
            && let Some(missing) = spec.missing_scope(&principal)
        {
            return Err(crate::failure::ToolFailure::terminal(format!(
                "the token lacks scope {missing}, which tool `{tool}` needs"
            ))
            .with_code("insufficient_scope")
            .with_data(json!({ "scope": spec.scopes.join(" ") })));
        }
        Ok(principal)
    }

    /// The context values an A2A request gives its tool: the caller the server authenticated
    /// (the server crate's caller identity) as a [`Principal`] with no scopes, and the
    /// allow-listed headers.
    fn call_extensions(&self, ctx: &RequestContext) -> Extensions {
        let mut extensions = Extensions::new();
        // The caller's W3C trace (the server crate has checked its `traceparent` and applied
        // its inbound policy). The server crate names a span of its own as the parent, which
        // no exporter has: when the trace is the caller's, the caller's span is the parent.
        if let Some(trace) = ctx.trace_context()
            && let Some(mut ours) = crate::tool::TraceContext::parse(&trace.traceparent())
        {
            if let Some(sent) = ctx
                .http_header("traceparent")
                .and_then(crate::tool::TraceContext::parse)
                .filter(|sent| sent.trace_id() == ours.trace_id())
            {
                ours = sent;
            }
            if let Some(state) = trace.tracestate() {
                ours = ours.with_tracestate(state);
            }
            if let Some(baggage) = ctx.http_header("baggage") {
                ours = ours.with_baggage(baggage);
            }
            extensions.insert(ours);
        }
        if let Some(identity) = ctx.caller_identity() {
            extensions.insert(Principal::new(identity));
        }
        if !self.forwarded_headers.is_empty() {
            let headers =
                RequestHeaders::from_pairs(self.forwarded_headers.iter().filter_map(|name| {
                    ctx.http_header(name).map(|value| (name, value.to_owned()))
                }));
            if !headers.is_empty() {
                extensions.insert(headers);
            }
        }
        extensions
    }

    /// The card's name (default `tools`).
    #[must_use]
    pub fn with_name(mut self, name: impl Into<String>) -> Self {
        self.name = name.into();
        self
    }

    /// The card's description (default: "Runs tools: …" with their names).
    #[must_use]
    pub fn with_description(mut self, description: impl Into<String>) -> Self {
        self.description = Some(description.into());
        self
    }

    /// The card's version (default: this crate's version).
    #[must_use]
    pub fn with_version(mut self, version: impl Into<String>) -> Self {
        self.version = version.into();
        self
    }

    /// The card's provider.
    #[must_use]
    pub fn with_provider(
        mut self,
        organization: impl Into<String>,
        url: impl Into<String>,
    ) -> Self {
        self.provider = Some(AgentProvider {
            organization: organization.into(),
            url: url.into(),
        });
        self
    }

    /// The calls this agent's tasks are running, each a [`runtime::Handle`](Handle) by A2A
    /// task id (its status, progress, chunks, outcome, cancellation): the same object a
    /// [`Runtime::spawn`](crate::runtime::Runtime::spawn) call and an MCP task run as. Take it
    /// before binding the agent.
    #[must_use]
    pub fn running_calls(&self) -> RunningCalls {
        self.running.clone()
    }

    /// The served executor.
    #[must_use]
    pub fn tools(&self) -> &Arc<dyn ToolExecutor> {
        &self.tools
    }

    /// The call a message asks for and the answers it starts with: a new call, or the call of
    /// a task parked on a question that the message answers (`ask.rs`). `Err` when the message
    /// ends its turn here (with what was written).
    async fn begin(
        &self,
        ctx: &RequestContext,
        emit: &Emitter<'_>,
    ) -> Result<(ToolCall, BTreeMap<String, Value>), A2aResult<()>> {
        match resume(ctx, emit) {
            Resume::Fresh => match tool_call(&ctx.message) {
                Ok(call) => Ok((call, BTreeMap::new())),
                Err(why) => {
                    let names: Vec<String> =
                        self.tools.specs().iter().map(|s| s.name.clone()).collect();
                    let message = format!(
                        "{why}; this agent runs tools: send a message with a data part \
                         {{\"tool\": NAME, \"arguments\": {{…}}}} where NAME is one of: {}",
                        names.join(", ")
                    );
                    Err(emit
                        .fail(FailureClass::InvalidRequest, message, "invalid_request")
                        .await)
                }
            },
            Resume::Answered(pending) => Ok((
                ToolCall {
                    tool: pending.tool,
                    arguments: pending.arguments,
                    attempt: pending.attempt,
                    key: Some(pending.idempotency_key),
                },
                pending.answers,
            )),
            Resume::Refused(question) => Err(emit.input_required_with(question).await),
            Resume::Broken(why) => Err(emit.fail(FailureClass::Internal, why, "internal").await),
        }
    }

    /// Runs the call as a [`runtime::Handle`](Handle), started where `Runtime::spawn` and MCP
    /// tasks start theirs and registered in [`RunningCalls`] by the task's id; the task's
    /// cancellation cancels it. Its chunks reach the task first (bounded: a slow reader slows
    /// the tool and loses nothing), then the handle's subscribers (which keep up or skip, as a
    /// runtime handle's do). `None` when the call asked a question nobody answered yet: the
    /// call is cancelled where it asked.
    async fn drive(
        &self,
        emit: &Emitter<'_>,
        tool: &str,
        arguments: &Value,
        tool_ctx: ToolContext,
        round: &Round,
        #[cfg(feature = "tracing")] span: &tracing::Span,
    ) -> A2aResult<Option<Result<ToolExecution, ToolFailure>>> {
        let ctx = emit.ctx();
        let token = ctx.cancellation_token.child_token();
        let handle = Handle::detached(HandleId::fresh(), token.clone());
        let (tx, mut rx) = mpsc::channel(STREAM_CAPACITY);
        let tool_ctx = tool_ctx.with_cancellation(token).with_stream(tx);
        let (ended, mut call_ended) = oneshot::channel::<()>();
        let (relayed, all_relayed) = oneshot::channel::<()>();
        let work = {
            let (tools, tool, arguments) =
                (Arc::clone(&self.tools), tool.to_owned(), arguments.clone());
            async move {
                let outcome = tools
                    .execute_with_context(&tool, &arguments, tool_ctx)
                    .await;
                let _ = ended.send(());
                // The handle's outcome waits for the call's chunks to reach its subscribers
                // (dropped unsent on a question: nothing waits then).
                let _ = all_relayed.await;
                outcome
            }
        };
        #[cfg(feature = "tracing")]
        let work = tracing::Instrument::instrument(work, span.clone());
        let (watch, watched) = mpsc::channel(STREAM_CAPACITY);
        // Cancels the call if this turn ends early (a refused write, a dropped turn).
        let running = self.running.start(&ctx.task_id.0, &handle);
        handle.start(&tokio::runtime::Handle::current(), watched, work, || {});
        // Until the call ends (`call_ended`) or asks a question nobody answered yet.
        let asked = {
            let mut waiting = pin!(round.run(&mut call_ended));
            loop {
                tokio::select! {
                    biased;
                    ended = &mut waiting => break ended.is_err(),
                    Some(chunk) = rx.recv() => {
                        let _ = watch.try_send(chunk.clone());
                        forward(emit, chunk).await?;
                    }
                }
            }
        };
        while let Ok(chunk) = rx.try_recv() {
            let _ = watch.try_send(chunk.clone());
            forward(emit, chunk).await?;
        }
        drop(watch);
        if asked {
            drop(running);
            return Ok(None);
        }
        let _ = relayed.send(());
        let outcome = handle.wait().await;
        drop(running);
        Ok(Some(outcome))
    }

    async fn run(&self, ctx: &RequestContext, queue: &dyn EventQueueWriter) -> A2aResult<()> {
        let emit = Emitter::new(ctx, queue);
        let (call, answers) = match self.begin(ctx, &emit).await {
            Ok(begun) => begun,
            Err(ended) => return ended,
        };
        let ToolCall {
            tool,
            arguments,
            attempt,
            key,
        } = call;
        let key = key.unwrap_or_else(|| idempotency_key(&ctx.message));
        #[cfg_attr(not(feature = "oauth"), allow(unused_mut))]
        let mut extensions = self.call_extensions(ctx);
        #[cfg(feature = "oauth")]
        if let Some(oauth) = &self.oauth {
            match self.authorize(oauth, ctx, &tool).await {
                Ok(principal) => {
                    extensions.insert_shared(principal);
                }
                Err(failure) => return emit.fail_with(&failure).await,
            }
        }
        let round = Round::new(&tool, &arguments, answers);
        extensions.insert(round.asker());
        // `working` first: a streaming client gets the task (and its id, to cancel it) before
        // the tool's first event, which for a quiet tool is its end.
        emit.status(TaskState::Working, None).await?;
        #[cfg(feature = "tracing")]
        let span =
            crate::tool::span::a2a_tool(&tool, extensions.get::<crate::tool::TraceContext>());
        #[cfg(feature = "tracing")]
        extensions.insert(crate::tool::span::CallSpan(span.clone()));
        let tool_ctx = ToolContext::new()
            .with_attempt(attempt)
            .with_idempotency_key(key.clone())
            .with_action_id(ctx.task_id.0.clone())
            .with_session_id(ctx.context_id.clone())
            .with_extensions(extensions);
        let outcome = self
            .drive(
                &emit,
                &tool,
                &arguments,
                tool_ctx,
                &round,
                #[cfg(feature = "tracing")]
                &span,
            )
            .await?;
        // A question nobody answered yet ends the turn (a sync body returns `Suspended`
        // through `?`, so its outcome is a failure that the question stands for).
        if let Some(Asked {
            key: asked,
            question,
        }) = round.asked()
        {
            let approval = question
                .is_confirm()
                .then(|| approval_request(ctx, &tool, &arguments, question.message()));
            let pending = Pending {
                tool,
                arguments,
                attempt,
                idempotency_key: key,
                answers: round.answers().clone(),
                asked,
                question: question.to_params(),
            };
            let note = question_message(&emit, &pending, approval.as_ref(), None);
            return emit.input_required_with(note).await;
        }
        let Some(outcome) = outcome else {
            let failure = ToolFailure::terminal("the tool asked a question that was not recorded")
                .with_kind(crate::failure::FailureKind::Internal);
            return emit.fail_with(&failure).await;
        };
        #[cfg(feature = "tracing")]
        if let Err(failure) = &outcome {
            crate::tool::span::failed(&span, failure.code(), None);
        }
        match outcome {
            Ok(execution) => {
                emit.chunk(RESULT_ARTIFACT, vec![result_part(execution.output)], true)
                    .await?;
                emit.complete().await
            }
            Err(failure) => emit.fail_with(&failure).await,
        }
    }
}

/// The result as a data part, or as its exact JSON text when a number in it is one a data
/// part would round (the server crate refuses such a part, which failed a valid call).
fn result_part(output: Value) -> Part {
    if is_i_json(&output) {
        Part::data(output)
    } else {
        Part::text(output.to_string()).with_media_type(EXACT_JSON_MEDIA_TYPE)
    }
}

/// One streamed chunk as an A2A event.
async fn forward(emit: &Emitter<'_>, chunk: ToolStreamChunk) -> A2aResult<()> {
    match chunk {
        ToolStreamChunk::Progress { fraction, message } => emit.progress(fraction, message).await,
        ToolStreamChunk::Text { text } => {
            emit.chunk(OUTPUT_ARTIFACT, vec![Part::text(text)], false)
                .await
        }
        ToolStreamChunk::Data { data } => {
            emit.chunk(OUTPUT_ARTIFACT, vec![Part::data(data)], false)
                .await
        }
        // Terminal chunks come from `spawn_stream`, not from a context's sink; the call's own
        // outcome ends the task.
        ToolStreamChunk::Done { .. } | ToolStreamChunk::Error { .. } => Ok(()),
    }
}

/// The key a retried send repeats: the client's idempotency key (the message metadata's
/// `a2a-rust.com/idempotency-key`, already validated by the server) or else the message id,
/// which a genuine retry resends unchanged.
fn idempotency_key(message: &Message) -> String {
    match key_of(message) {
        Ok(Some(key)) => key.to_owned(),
        _ => message.id.0.clone(),
    }
}

/// What a message asks for: the tool, its arguments, and the caller's attempt and key.
#[derive(Debug, PartialEq)]
struct ToolCall {
    tool: String,
    arguments: Value,
    attempt: u32,
    key: Option<String>,
}

/// The `{"tool": NAME, "arguments": {…}}` a message asks for, with the attempt and key in
/// that data part's metadata.
fn tool_call(message: &Message) -> Result<ToolCall, String> {
    let Some((data, metadata)) = message.parts.iter().find_map(|p| match &p.content {
        PartContent::Data(data) => Some((data, p.metadata.as_ref())),
        _ => None,
    }) else {
        return Err("the message has no data part".to_owned());
    };
    let Some(tool) = data.get("tool").and_then(Value::as_str) else {
        return Err(format!("the data part {data} has no string `tool`"));
    };
    let mut arguments = match data.get("arguments") {
        None | Some(Value::Null) => Value::Object(Map::new()),
        Some(args @ Value::Object(_)) => args.clone(),
        Some(other) => return Err(format!("`arguments` must be an object, got {other}")),
    };
    // Clients on the protobuf binding (the official Python SDK among them) carry a data part
    // as a `google.protobuf.Value`, whose numbers are all doubles: `2` arrives as `2.0`.
    integral_floats_to_integers(&mut arguments);
    let (attempt, key) = caller_of(metadata)?;
    Ok(ToolCall {
        tool: tool.to_owned(),
        arguments,
        attempt,
        key,
    })
}

/// The caller's attempt (1 when not given) and idempotency key from a data part's metadata.
/// A value of the wrong type is refused, not ignored: a tool must not run believing it has no
/// key when its caller sent one.
fn caller_of(metadata: Option<&Value>) -> Result<(u32, Option<String>), String> {
    let field = |key: &str| metadata.and_then(|m| m.get(key));
    let attempt = match field(ATTEMPT_METADATA) {
        None | Some(Value::Null) => 1,
        Some(value) => {
            // A protobuf client's number is a double: `2` arrives as `2.0`.
            let mut number = value.clone();
            integral_floats_to_integers(&mut number);
            number
                .as_u64()
                .and_then(|n| u32::try_from(n).ok())
                .filter(|&n| n >= 1)
                .ok_or_else(|| {
                    format!("metadata `{ATTEMPT_METADATA}` must be an integer from 1, got {value}")
                })?
        }
    };
    let key = match field(IDEMPOTENCY_KEY_METADATA) {
        None | Some(Value::Null) => None,
        Some(Value::String(key)) => Some(key.clone()),
        Some(other) => {
            return Err(format!(
                "metadata `{IDEMPOTENCY_KEY_METADATA}` must be a string, got {other}"
            ));
        }
    };
    Ok((attempt, key))
}

fn skill(spec: &ToolSpec) -> AgentSkill {
    let title = spec.annotations.title.as_deref().unwrap_or(&spec.name);
    let description = if spec.description.trim().is_empty() {
        format!("The `{}` tool.", spec.name)
    } else {
        spec.description.clone()
    };
    let mut tags = vec!["tool".to_owned()];
    let hints = [
        (spec.annotations.read_only, "read-only"),
        (spec.annotations.destructive, "destructive"),
        (spec.annotations.idempotent, "idempotent"),
        (spec.annotations.open_world, "open-world"),
    ];
    tags.extend(
        hints
            .iter()
            .filter(|(on, _)| *on == Some(true))
            .map(|(_, tag)| (*tag).to_owned()),
    );
    // The tool's own tags (`#[tool(tags = …)]`) after the hints.
    for tag in &spec.tags {
        if !tags.contains(tag) {
            tags.push(tag.clone());
        }
    }
    let skill = AgentSkill::new(spec.name.clone(), title.to_owned(), description)
        .with_tags(tags)
        .with_input_modes(["application/json"])
        .with_output_modes(["application/json"]);
    match example_call(spec) {
        Some(example) => skill.with_examples([example]),
        None => skill,
    }
}

/// A tool's entry in the card's [`TOOL_SCHEMAS_EXTENSION`]: the spec's schemas, hints, failure
/// codes and time limit, under the spec's own JSON names.
fn published(spec: &ToolSpec) -> Value {
    let mut entry = Map::new();
    entry.insert("inputSchema".into(), spec.input_schema.clone());
    if let Some(output) = &spec.output_schema {
        entry.insert("outputSchema".into(), output.clone());
    }
    if spec.annotations != ToolAnnotations::default() {
        entry.insert("annotations".into(), json!(spec.annotations));
    }
    if !spec.failure_codes.is_empty() {
        entry.insert("failureCodes".into(), json!(spec.failure_codes));
    }
    if let Some(timeout) = spec.timeout {
        let ms = u64::try_from(timeout.as_millis()).unwrap_or(u64::MAX);
        entry.insert("timeoutMs".into(), json!(ms));
    }
    Value::Object(entry)
}

impl Agent for ToolAgent {
    #[cfg(feature = "oauth")]
    fn oauth(&self) -> Option<crate::auth::ResourceServer> {
        self.oauth.clone()
    }

    fn card(&self, url: &str) -> AgentCard {
        let specs = self.tools.specs();
        let names: Vec<&str> = specs.iter().map(|s| s.name.as_str()).collect();
        let description = self
            .description
            .clone()
            .unwrap_or_else(|| format!("Runs tools: {}.", names.join(", ")));
        let mut card = super::card::base_card(&self.name, &self.version, url)
            .with_description(description)
            .with_capabilities(AgentCapabilities::none().with_streaming(true))
            .with_input_modes(["application/json"])
            .with_output_modes(["application/json"]);
        card.provider.clone_from(&self.provider);
        card.skills = specs.iter().map(|s| skill(s)).collect();
        let schemas: Map<String, Value> = specs
            .iter()
            .map(|s| (s.name.clone(), published(s)))
            .collect();
        card.capabilities.extensions = Some(vec![AgentExtension {
            uri: TOOL_SCHEMAS_EXTENSION.to_owned(),
            description: Some(
                "Each tool skill's spec by skill id: the JSON Schemas of its arguments and \
                 result, its hints, failure codes and time limit"
                    .to_owned(),
            ),
            required: Some(false),
            params: Some(json!({ "skills": schemas })),
        }]);
        card
    }
}

impl AgentExecutor for ToolAgent {
    fn execute<'a>(
        &'a self,
        ctx: &'a RequestContext,
        queue: &'a dyn EventQueueWriter,
    ) -> BoxFuture<'a, A2aResult<()>> {
        run_execute(ctx, queue, move |ctx, queue: TaskQueue| async move {
            self.run(ctx, &queue).await
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(tool: &str, arguments: Value) -> ToolCall {
        ToolCall {
            tool: tool.to_owned(),
            arguments,
            attempt: 1,
            key: None,
        }
    }

    #[test]
    fn the_callers_attempt_and_key_are_read_from_the_data_parts_metadata() {
        let with = |metadata: Value| {
            let part = Part::data(json!({"tool": "book"})).with_metadata(metadata);
            tool_call(&Message::user("m", vec![part]))
        };
        let got = with(json!({ATTEMPT_METADATA: 3, IDEMPOTENCY_KEY_METADATA: "order-42"}));
        assert_eq!(
            got,
            Ok(ToolCall {
                attempt: 3,
                key: Some("order-42".to_owned()),
                ..call("book", json!({}))
            })
        );
        // A protobuf client's `2` is `2.0`.
        assert_eq!(with(json!({ATTEMPT_METADATA: 2.0})).unwrap().attempt, 2);
        assert_eq!(
            with(json!({ATTEMPT_METADATA: 0})),
            Err("metadata `executor/attempt` must be an integer from 1, got 0".to_owned())
        );
        assert_eq!(
            with(json!({IDEMPOTENCY_KEY_METADATA: 42})),
            Err("metadata `executor/idempotencyKey` must be a string, got 42".to_owned())
        );
    }

    #[test]
    fn tool_calls_are_read_from_the_data_part() {
        let message = Message::user(
            "m",
            vec![
                Part::text("please"),
                Part::data(json!({"tool": "add", "arguments": {"a": 1}})),
            ],
        );
        assert_eq!(tool_call(&message), Ok(call("add", json!({"a": 1}))));
        let bare = Message::user("m", vec![Part::data(json!({"tool": "now"}))]);
        assert_eq!(tool_call(&bare), Ok(call("now", json!({}))));
        let text = Message::user_text("m", "add 1 and 2");
        assert_eq!(
            tool_call(&text),
            Err("the message has no data part".to_owned())
        );
        let bad = Message::user(
            "m",
            vec![Part::data(json!({"tool": "add", "arguments": [1, 2]}))],
        );
        assert_eq!(
            tool_call(&bad),
            Err("`arguments` must be an object, got [1,2]".to_owned())
        );
        let doubles = Message::user(
            "m",
            vec![Part::data(
                json!({"tool": "add", "arguments": {"a": 2.0, "b": [1.5, -3.0], "c": 1e300}}),
            )],
        );
        assert_eq!(
            tool_call(&doubles),
            Ok(call("add", json!({"a": 2, "b": [1.5, -3], "c": 1e300})))
        );
        let nameless = Message::user("m", vec![Part::data(json!({"name": "add"}))]);
        assert_eq!(
            tool_call(&nameless),
            Err("the data part {\"name\":\"add\"} has no string `tool`".to_owned())
        );
    }
}
