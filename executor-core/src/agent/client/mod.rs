//! `A2aToolExecutor`: an A2A agent's skills as tools (feature `a2a-client`).

mod catalog;
mod config;
mod outcome;
mod trace;
mod transport;

use std::fmt;
use std::sync::Arc;

use a2a_protocol_client::{ClientBuilder, resolve_agent_card};
use a2a_protocol_types::agent_card::AgentCard;
use a2a_protocol_types::params::MessageSendParams;
use serde_json::Value;
use tokio::sync::mpsc;

use catalog::catalog;
pub use config::{
    A2aClientConfig, A2aClientError, DEFAULT_A2A_CANCEL_TIMEOUT, DEFAULT_A2A_CONNECT_TIMEOUT,
    DEFAULT_A2A_REQUEST_TIMEOUT,
};
use outcome::{Fold, Outcome};
use transport::{Shared, message_for};

use crate::elicit::MAX_QUESTIONS_PER_CALL;
use crate::failure::ToolFailure;
use crate::tool::SpecList;
use crate::tool::call::drive;
use crate::tool::{BoxFuture, ContextExecutor, ToolContext, ToolStreamChunk};

/// An A2A agent's skills as tools, over the A2A client crate (`a2a-protocol-client`, A2A 1.0).
///
/// - [`connect`](Self::connect) reads the agent card and offers each skill as a tool named by
///   the skill's id. A skill whose schemas the card publishes (the
///   [`TOOL_SCHEMAS_EXTENSION`](crate::agent::TOOL_SCHEMAS_EXTENSION) that
///   [`ToolAgent`](crate::agent::ToolAgent) writes) is the real tool: its input and output
///   schemas, called with the data part `{"tool": NAME, "arguments": {…}}`, its result read from
///   the `result` artifact. Its spec carries every hint as the agent gave it (`idempotent:
///   false` too), its failure codes and its time limit, so a [`Runtime`](crate::runtime::Runtime)
///   in front of this executor retries it as it would the tool itself; each call sends the
///   caller's [`ToolContext::attempt`] and [`ToolContext::idempotency_key`] in the data part's
///   metadata ([`ATTEMPT_METADATA`](crate::agent::ATTEMPT_METADATA),
///   [`IDEMPOTENCY_KEY_METADATA`](crate::agent::IDEMPOTENCY_KEY_METADATA)). Any other skill takes one string argument, `text`, sent as a text
///   message; its answer is the task's artifacts (or the agent's message): a lone data part as
///   its data, text as one string.
/// - When the card declares streaming, a call streams (`SendStreamingMessage`): `working`
///   updates carrying `{"progress": f}` become [`ToolContext::progress`], other status texts
///   and artifact parts [`ToolContext::text`] / [`ToolContext::emit`] chunks. Otherwise it is a
///   blocking `SendMessage`.
/// - A call dropped before the task ends (its timeout, its cancellation, the caller going
///   away) sends `CancelTask` for the task (streaming calls: a blocking send has no task id
///   until it returns).
/// - The call's budget (its context's deadline) bounds every wait; without one the config's
///   request timeout does.
/// - A failed, rejected or canceled task comes back through the failure table
///   ([`from_a2a`](crate::failure::transport::from_a2a)): the code, class and data our agents
///   send survive (and the retry hint); a plain agent's failure is ordinary (a rejected task
///   terminal) with code `a2a_task_failed`. Nothing a peer sends makes a failure unhandled;
///   only a tool the card does not list is.
/// - A task parked at `input-required` on a question this client can read (a
///   [`ToolAgent`](crate::agent::ToolAgent)'s form or URL question, tagged
///   [`ELICITATION_EXTENSION`](crate::agent::ELICITATION_EXTENSION), or an approval request of
///   the approval extension) is put to the asker of the call's own context
///   ([`ToolContext::ask`]; an approval as a yes/no question), and the answer goes back as the
///   task's next message: re-served over MCP, the MCP client answers it. Without an asker, on a
///   question it cannot read, or at `auth-required`, the call ends with the terminal
///   `a2a_interrupted` failure.
///
/// ```no_run
/// use tool_executor::agent::A2aToolExecutor;
/// use tool_executor::ToolExecutor;
/// use serde_json::json;
///
/// # async fn demo() -> Result<(), Box<dyn std::error::Error>> {
/// let agent = A2aToolExecutor::connect("http://127.0.0.1:3000").await?;
/// for spec in agent.specs().iter() {
///     println!("{}: {}", spec.name, spec.input_schema);
/// }
/// let sum = agent.execute("add", &json!({"a": 2, "b": 40})).await?;
/// assert_eq!(sum, json!(42));
/// # Ok(()) }
/// ```
#[derive(Clone)]
pub struct A2aToolExecutor {
    shared: Arc<Shared>,
}

impl fmt::Debug for A2aToolExecutor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("A2aToolExecutor")
            .field("url", &self.shared.config.url)
            .field("agent", &self.shared.card.name)
            .field(
                "tools",
                &self
                    .shared
                    .catalog
                    .specs
                    .iter()
                    .map(|s| &s.name)
                    .collect::<Vec<_>>(),
            )
            .finish()
    }
}

impl A2aToolExecutor {
    /// Reads the card of the agent at `url` (within [`DEFAULT_A2A_CONNECT_TIMEOUT`]) and
    /// offers its skills as tools.
    ///
    /// # Errors
    /// When the card cannot be read, or names no interface this client speaks.
    pub async fn connect(url: impl Into<String>) -> Result<Self, A2aClientError> {
        Self::connect_with(A2aClientConfig::new(url)).await
    }

    /// [`connect`](Self::connect) with the config's time limits.
    ///
    /// # Errors
    /// When the card cannot be read, or names no interface this client speaks.
    pub async fn connect_with(config: A2aClientConfig) -> Result<Self, A2aClientError> {
        let error = |detail: String| A2aClientError {
            url: config.url.clone(),
            detail,
        };
        let card = tokio::time::timeout(config.connect_timeout, resolve_agent_card(&config.url))
            .await
            .map_err(|_| {
                error(format!(
                    "no agent card within {} ms (the connect timeout)",
                    config.connect_timeout.as_millis()
                ))
            })?
            .map_err(|e| error(format!("could not read the agent card: {e}")))?;
        let client = ClientBuilder::from_card(&card)
            .and_then(|builder| {
                builder
                    .with_timeout(config.request_timeout)
                    .with_connection_timeout(config.connect_timeout)
                    // The call's own budget bounds the stream (`drive`).
                    .with_stream_idle_timeout(None)
                    .with_interceptor(trace::Propagate)
                    .build()
            })
            .map_err(|e| error(format!("no usable interface on the agent card: {e}")))?;
        let catalog = catalog(&card);
        Ok(Self {
            shared: Arc::new(Shared {
                client,
                card,
                catalog,
                config,
            }),
        })
    }

    /// The agent card read at connect time.
    #[must_use]
    pub fn card(&self) -> &AgentCard {
        &self.shared.card
    }

    /// The agent's URL.
    #[must_use]
    pub fn url(&self) -> &str {
        &self.shared.config.url
    }

    async fn run(&self, tool: &str, params: &Value, ctx: &ToolContext) -> Outcome {
        let Some(input) = self.shared.catalog.routes.get(tool).cloned() else {
            return Err(ToolFailure::unknown_tool(tool));
        };
        let message = message_for(tool, &input, params, ctx)?;
        let mut params = MessageSendParams::new(message);
        let mut fold = Fold::new(tool, input, ctx);
        // This hop's context, taken now: with feature `otel`, the span the call runs in,
        // whatever spans the HTTP client opens below it.
        let outgoing = crate::tool::TraceContext::outgoing(ctx);
        let mut asked = 0;
        loop {
            let outcome = trace::scope(outgoing.clone(), async {
                if self.shared.card.capabilities.streaming == Some(true) {
                    self.shared.streamed(tool, params, &mut fold).await
                } else {
                    self.shared.blocking(tool, params, &mut fold).await
                }
            })
            .await;
            // A question the agent parked its task on goes to our own caller, and the answer
            // back to the task as its next message.
            let Some(parked) = fold.parked.take() else {
                return outcome;
            };
            if asked >= MAX_QUESTIONS_PER_CALL {
                return outcome;
            }
            asked += 1;
            params = MessageSendParams::new(self.shared.relay(ctx, parked).await?);
        }
    }
}

impl ContextExecutor for A2aToolExecutor {
    fn dispatch<'a>(
        &'a self,
        tool: &'a str,
        params: &'a Value,
        ctx: ToolContext,
    ) -> BoxFuture<'a, Outcome> {
        Box::pin(async move {
            let backstop = Some(self.shared.config.request_timeout);
            drive(tool, &ctx, backstop, Box::pin(self.run(tool, params, &ctx))).await
        })
    }

    fn stream<'a>(
        &'a self,
        tool: &'a str,
        params: &'a Value,
        action_id: &'a str,
    ) -> BoxFuture<'a, Result<mpsc::Receiver<ToolStreamChunk>, String>> {
        crate::tool::stream_task::stream_clone(self, tool, params, action_id)
    }

    fn list_specs(&self) -> SpecList {
        Arc::clone(&self.shared.catalog.specs)
    }
}
