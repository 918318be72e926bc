//! A2A agents (feature `a2a`): declare them with [`agent_executor!`](crate::agent_executor) or
//! [`#[agent]`](macro@crate::agent), serve a tool set as one with [`ToolAgent`], and [`serve`] any of
//! them over the real A2A server crate (`a2a-protocol-server`, A2A protocol 1.0).
//!
//! Both macros implement the server crate's own [`AgentExecutor`] trait, so its JSON-RPC and
//! HTTP+JSON dispatchers serve the agents unchanged and any A2A client talks to them.
//!
//! ```
//! use tool_executor::agent::{Agent, A2aResult, Emitter, EventQueueWriter, RequestContext};
//!
//! /// Answers with the text it was sent.
//! #[tool_executor::agent(
//!     name = "Echo",
//!     version = "1.0.0",
//!     streaming,
//!     skill(id = "echo", name = "Echo", description = "Repeats the message.", tags = ["echo"]),
//! )]
//! impl EchoAgent {
//!     async fn execute(&self, ctx: &RequestContext, queue: &dyn EventQueueWriter) -> A2aResult<()> {
//!         let emit = Emitter::new(ctx, queue);
//!         emit.text_artifact("echo", ctx.message.text().unwrap_or_default()).await
//!         // returning without a terminal state completes the task
//!     }
//! }
//! struct EchoAgent;
//!
//! let card = EchoAgent::agent_card("http://127.0.0.1:3000");
//! assert_eq!(card.name, "Echo");
//! assert_eq!(card.description, "Answers with the text it was sent.");
//! assert!(card.validate().is_ok());
//! assert_eq!(EchoAgent.card("http://x").skills[0].id, "echo");
//! ```
//!
//! The seed crate's form works, and bodies can reach the agent's fields through `self`:
//!
//! ```
//! use tool_executor::agent::Emitter;
//!
//! struct Greeter { greeting: String }
//!
//! tool_executor::agent_executor!(Greeter, |ctx, queue| async move {
//!     let name = ctx.message.text().unwrap_or("stranger");
//!     Emitter::new(ctx, queue)
//!         .complete_with_message(format!("{}, {name}!", self.greeting))
//!         .await
//! });
//! ```
//!
//! # Calling a served agent
//! [`serve`] and [`AgentServer`] publish the card at `/.well-known/agent-card.json` and answer
//! JSON-RPC at `/` (HTTP+JSON too: `POST /message:send` takes the same `params`). Every request
//! carries the `A2A-Version: 1.0` header; without it the server assumes 0.3 and answers
//! `-32009` (version not supported). A [`ToolAgent`] runs the tool named in the message's data
//! part; with `cargo run -p examples --example a2a_agent -- --addr 127.0.0.1:3000 --agent tools`
//! running:
//!
//! ```text
//! curl -s http://127.0.0.1:3000/ \
//!   -H 'Content-Type: application/json' -H 'A2A-Version: 1.0' \
//!   -d '{"jsonrpc": "2.0", "id": 1, "method": "SendMessage",
//!        "params": {"message": {"messageId": "m-1", "role": "ROLE_USER",
//!          "parts": [{"data": {"tool": "add", "arguments": {"a": 2, "b": 40}}}]}}}'
//! ```
//!
//! answers with the finished task, the tool's result in its `result` artifact:
//!
//! ```text
//! {"jsonrpc":"2.0","id":1,"result":{"task":{"artifacts":[{"artifactId":"result",
//!   "parts":[{"data":42}]}],"contextId":"…","id":"…",
//!   "status":{"state":"TASK_STATE_COMPLETED","timestamp":"…"}}}}
//! ```
//!
//! A declared agent such as the `echo` one reads text parts instead:
//! `"parts": [{"text": "hello"}]`. A tool's failure fails the task, with the failure's message
//! in `status.message` (see [`ToolAgent`]); `SendStreamingMessage` takes the same `params` and
//! answers with server-sent events.
//!
//! # Correct ends
//! Every event a declared agent writes goes through a [`TaskQueue`] that guarantees:
//! - after the task is cancelled, nothing but the `Canceled` state is written;
//! - after a terminal state, nothing is written;
//! - an `execute` that returns `Ok` without a terminal state gets `Completed` (or `Canceled`
//!   when the task was cancelled; a turn parked at `input-required` stays parked);
//! - an `execute` that panics fails its task instead of leaving it `working`.
//!
//! [`Emitter`] writes the common events in one call each and makes the cancellation check one
//! call ([`Emitter::is_cancelled`], [`Emitter::end_if_cancelled`], [`Emitter::until_cancelled`]).

mod ask;
mod builder;
mod card;
#[cfg(feature = "a2a-client")]
mod client;
mod emitter;
mod example;
mod limit;
#[cfg(feature = "oauth")]
mod oauth;
mod queue;
mod running;
mod serve;
#[cfg(any(feature = "a2a-postgres", feature = "a2a-sqlite"))]
mod stores;
mod tools;
#[cfg(feature = "a2a-postgres")]
mod watchdog;

pub use ask::{ELICITATION_EXTENSION, PENDING_METADATA, approval_digest};
pub use builder::{AgentServerBuilder, serve};

pub use card::Agent;
#[doc(hidden)]
pub use card::{CardSpec, SkillSpec};
#[cfg(feature = "a2a-client")]
#[cfg_attr(docsrs, doc(cfg(feature = "a2a-client")))]
pub use client::{
    A2aClientConfig, A2aClientError, A2aToolExecutor, DEFAULT_A2A_CANCEL_TIMEOUT,
    DEFAULT_A2A_CONNECT_TIMEOUT, DEFAULT_A2A_REQUEST_TIMEOUT,
};
pub use emitter::{Emitter, failure_class};
pub use limit::{DEFAULT_MAX_A2A_PENDING_OUTPUT, DEFAULT_MAX_A2A_REQUEST_BYTES};
pub use queue::TaskQueue;
#[doc(hidden)]
pub use queue::{default_cancel, run_cancel, run_execute, run_shutdown};
pub use running::RunningCalls;
pub use serve::{AgentServer, RunningAgent, ServeError, StopReport};
#[cfg(any(feature = "a2a-postgres", feature = "a2a-sqlite"))]
pub use stores::Stores;
pub use tools::{
    ATTEMPT_METADATA, EXACT_JSON_MEDIA_TYPE, IDEMPOTENCY_KEY_METADATA, OUTPUT_ARTIFACT,
    RESULT_ARTIFACT, TOOL_SCHEMAS_EXTENSION, ToolAgent,
};
#[cfg(feature = "a2a-postgres")]
#[cfg_attr(docsrs, doc(cfg(feature = "a2a-postgres")))]
pub use watchdog::{DEFAULT_REPLICA_TIMEOUT, REPLICA_LOST};

/// The A2A server crate (`a2a-protocol-server`), for what this module does not wrap: task
/// stores, interceptors, push senders, the dispatchers.
pub use a2a_protocol_server as server;
/// The A2A protocol types (`a2a-protocol-types`).
pub use a2a_protocol_types as types;

// From the A2A crates, only the types our own signatures name (trait bounds, arguments,
// results, public fields); everything else is under `server` and `types`.
pub use a2a_protocol_server::serve::ServeReport;
pub use a2a_protocol_server::{
    AgentExecutor, EventQueueWriter, RequestContext, RequestHandler, RequestHandlerBuilder,
    ServerError, ShutdownReport,
};
pub use a2a_protocol_types::agent_card::AgentCard;
pub use a2a_protocol_types::artifact::Artifact;
pub use a2a_protocol_types::error::{A2aError, A2aResult};
pub use a2a_protocol_types::failure::FailureClass;
pub use a2a_protocol_types::message::{Message, Part};
pub use a2a_protocol_types::task::TaskState;
