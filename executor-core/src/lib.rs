//! # tool-executor
//!
//! Turn plain Rust functions into tools an LLM agent can call. One attribute gives a function
//! a name, a description (its doc comment), JSON Schemas for its parameters and its result, a
//! typed failure mapping and a dispatch entry behind the [`ToolExecutor`] trait.
//!
//! ```
//! use tool_executor::prelude::*;
//!
//! /// Adds two numbers.
//! #[tool(read_only, idempotent)]
//! async fn add(
//!     /// The first addend.
//!     a: i64,
//!     /// The second addend.
//!     b: i64,
//! ) -> i64 {
//!     a + b
//! }
//!
//! /// Greets someone, borrowing the name from the request.
//! #[tool]
//! fn greet(name: &str, #[arg(default)] excited: bool) -> String {
//!     format!("Hello, {name}{}", if excited { "!" } else { "." })
//! }
//!
//! # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
//! let tools = toolset![add, greet];
//! assert_eq!(tools.execute("add", &json!({"a": 2, "b": 40})).await, Ok(json!(42)));
//!
//! // Wrong arguments are a failure a model can act on, never a panic.
//! let err = tools.execute("add", &json!({"a": "two", "b": 1})).await.unwrap_err();
//! assert_eq!(err, "a: expected an integer, got \"two\"");
//!
//! // The function is still an ordinary function.
//! assert_eq!(greet("Ada", true), "Hello, Ada!");
//! assert_eq!(add::spec().input_schema["required"], json!(["a", "b"]));
//! # });
//! ```
//!
//! A stateful service becomes an executor with `#[tools]`:
//!
//! ```
//! use tool_executor::prelude::*;
//! use std::sync::atomic::{AtomicU64, Ordering};
//!
//! #[derive(Default)]
//! struct Counter { hits: AtomicU64 }
//!
//! #[tools]
//! impl Counter {
//!     /// Counts a hit and returns the total.
//!     #[tool]
//!     async fn hit(&self, #[arg(default = 1)] by: u64) -> u64 {
//!         self.hits.fetch_add(by, Ordering::Relaxed) + by
//!     }
//! }
//!
//! # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
//! let counter = Counter::default();
//! assert_eq!(counter.execute("hit", &json!({})).await, Ok(json!(1)));
//! assert_eq!(counter.execute("hit", &json!({"by": 2})).await, Ok(json!(3)));
//! assert_eq!(counter.specs()[0].name, "hit");
//! # });
//! ```
//!
//! Misuse is a compile error that says what to write instead:
//!
//! ```compile_fail
//! use tool_executor::prelude::*;
//! /// Not allowed: tools are functions.
//! #[tool]
//! struct NotAFunction;
//! ```
//!
//! ```compile_fail
//! use tool_executor::prelude::*;
//! /// Adds.
//! #[tool] fn add(a: i64, b: i64) -> i64 { a + b }
//! mod other {
//!     use tool_executor::prelude::*;
//!     /// Also named `add`.
//!     #[tool(name = "add")] pub fn plus(a: i64) -> i64 { a }
//! }
//! let tools = toolset![add, other::plus]; // two tools named `add`
//! ```
//!
//! ## Typed failures
//!
//! A tool returning `Result<T, E>` fails with `E`, converted into a [`ToolFailure`](struct@ToolFailure).
//! `#[derive(ToolFailure)]` writes that conversion from one line per variant: whether a caller
//! may retry (*ordinary*, the default), must stop (*terminal*) or should let another executor
//! take the call (*unhandled*), a stable code, a retry hint, whose fault it was, what to
//! withhold and what structured data to attach. The message is the error's `Display`, so
//! thiserror works as is, `#[error(transparent)]` and `#[from]` included; the error itself is
//! kept as the failure's [`source`](std::error::Error::source) for logs.
//!
//! ```
//! use tool_executor::prelude::*;
//! use tool_executor::failure::transport::{for_retry, RetryDecision};
//! use tool_executor::ToolSet;
//! use tool_executor::failure::REDACTED_MESSAGE;
//! use std::time::Duration;
//!
//! #[derive(Debug, thiserror::Error, ToolFailure)]
//! enum WeatherError {
//!     #[error("unknown city `{city}`")]
//!     #[failure(terminal, data)]
//!     UnknownCity { city: String },
//!     #[error("weather service unavailable")]
//!     #[failure(retry_after = "200ms")] // ordinary (retryable) is the default
//!     Unavailable,
//!     #[error("the upstream rejected key {0}")]
//!     #[failure(terminal, redact, code = "upstream_auth")]
//!     BadKey(String),
//! }
//!
//! /// Current weather for a city.
//! #[tool]
//! async fn weather(city: &str) -> Result<String, WeatherError> {
//!     match city {
//!         "Paris" => Ok("sunny".into()),
//!         "Busy" => Err(WeatherError::Unavailable),
//!         "Key" => Err(WeatherError::BadKey("sk-123".into())),
//!         _ => Err(WeatherError::UnknownCity { city: city.into() }),
//!     }
//! }
//!
//! // The spec tells clients how the tool can fail.
//! assert_eq!(weather::spec().failure_codes, ["unknown_city", "unavailable", "upstream_auth"]);
//!
//! async fn fail(tools: &ToolSet, city: &str) -> ToolFailure {
//!     let params = json!({"city": city});
//!     tools.execute_with_context("weather", &params, ToolContext::new()).await.unwrap_err()
//! }
//!
//! # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
//! let tools = toolset![weather];
//! let unknown = fail(&tools, "Atlantis").await;
//! assert_eq!(unknown.message(), "unknown city `Atlantis`");
//! assert_eq!(unknown.code(), "unknown_city");
//! assert_eq!(unknown.data(), Some(&json!({"city": "Atlantis"})));
//! assert_eq!(for_retry(&unknown), RetryDecision::Stop);
//!
//! let busy = fail(&tools, "Busy").await;
//! assert_eq!(for_retry(&busy), RetryDecision::Retry { after: Some(Duration::from_millis(200)) });
//!
//! // A redacted variant's text reaches no model or peer; logs still have it.
//! let key = fail(&tools, "Key").await;
//! assert_eq!(key.message(), REDACTED_MESSAGE);
//! assert_eq!(key.withheld_message(), Some("the upstream rejected key sk-123"));
//! assert_eq!(tools.execute("weather", &json!({"city": "Key"})).await, Err(REDACTED_MESSAGE.to_owned()));
//! # });
//! ```
//!
//! The keys (`terminal`, `code`, `retry_after`, `kind`, `redact`, `data`, `skip`, `crate`) are
//! listed on the derive, [`ToolFailure`](derive@ToolFailure); keys on the enum are defaults
//! each variant overrides. A tool whose error type does not derive it (a `String`, a
//! `ToolFailure`, a hand-written `From`) lists no codes.
//!
//! Other error types convert too: `String` and `&str` are ordinary failures shown as is;
//! `Box<dyn Error + Send + Sync>` (and `anyhow::Error` with the `anyhow` feature) are ordinary
//! and redacted, since an arbitrary error can carry a secret ([`ToolFailure::reveal`] shows
//! it). What every failure becomes on each transport is one table:
//! [`failure::transport`].
//!
//! Mistakes are compile errors that point at the attribute:
//!
//! ```compile_fail
//! use tool_executor::prelude::*;
//! #[derive(Debug, thiserror::Error, ToolFailure)]
//! enum E {
//!     #[error("busy")]
//!     #[failure(retry_afer = "1s")] // unknown key; did you mean `retry_after`?
//!     Busy,
//! }
//! ```
//!
//! ## The crate root
//! The root holds what a tool author writes; everything else lives in the module that owns it
//! (`tool_executor::tool::BoxFuture`, `tool_executor::failure::REDACTED_MESSAGE`, …).
//!
//! | item | what it is |
//! |---|---|
//! | [`#[tool]`](macro@tool), [`#[tools]`](macro@tools), [`toolset!`] | a tool from a fn, an executor from an impl block, a set from tools |
//! | [`#[prompt]`](macro@prompt), [`#[resource]`](macro@resource), [`catalog!`] | an MCP prompt, resource or resource template from a fn; a [`Catalog`](catalog::Catalog) of them for `McpServer::with_catalog` |
//! | [`#[derive(ToolFailure)]`](derive@ToolFailure) | a typed failure from an error enum |
//! | [`#[derive(Form)]`](derive@elicit::Form), [`elicit`] | a form the user fills in when a tool asks (`ctx.elicit::<T>(message)`, `ctx.confirm(…)`) |
//! | `#[agent]`, `agent_executor!` (feature `a2a`) | an A2A agent from an impl block, from closures |
//! | [`ToolContext`] | what a tool may read of its call: ids, attempt, deadline, cancellation, progress, state changes |
//! | [`ChunkDropped`] | why a progress chunk was not delivered |
//! | [`ToolFailure`](struct@ToolFailure), [`FailureKind`], [`Classification`] | a failure: ordinary, terminal or unhandled, with a kind, code, retry hint and data |
//! | [`ToolExecutor`] | the seed contract every executor implements |
//! | [`ContextExecutor`] | the one method (`dispatch`) an executor implements to get every [`ToolExecutor`] method |
//! | [`Tool`] | what `#[tool]` implements on a free function |
//! | [`ToolSet`] | tools and executors behind one name-dispatching executor |
//! | [`ToolSpec`], [`ToolAnnotations`] | a tool's name, description, schemas, hints and failure codes |
//! | [`ToolExecution`], [`ToolStreamChunk`] | a call's output and state changes; one chunk of a streamed call |
//! | `McpServer`, `McpServerConfig`, `McpToolExecutor` (feature `mcp`) | serve any executor over MCP; use an MCP server's tools |
//! | `A2aToolExecutor` (feature `a2a-client`) | use an A2A agent's skills as tools |
//! | `SubprocessToolExecutor`, `SubprocessTool` (feature `subprocess`) | one process per call |
//! | [`assert_contract!`] | a test that fails, with each change classified, when a set differs from its contract lock |
//! | [`prelude`] | the macros (with `prompt`, `resource`, `catalog!`), [`ToolContext`], [`ToolExecutor`], [`ToolFailure`](struct@ToolFailure) and `json!` |
//!
//! The modules: [`tool`](mod@tool) (the executor traits, the call path, sets, streams), [`failure`] (the
//! failure type and its per-transport table, [`failure::transport`]), [`schema`] (canonical
//! JSON Schemas and each provider's dialect), [`provider`] (tool definitions for OpenAI,
//! Anthropic and Gemini, and their calls answered), [`search`] (tool search for large sets),
//! [`contract`] (the contract lock), [`runtime`] (retries, limits, detached calls),
//! [`transform`] (renames, argument transforms, visibility and hooks over any executor),
//! [`auth`] (who is calling; feature `oauth` for the resource server), `agent` (feature
//! `a2a`), `mcp` (feature `mcp`), `subprocess` (feature `subprocess`) and `car` (features
//! `car-ir`, `car-ws`).
//!
//! ## Cargo features
//! None is on by default: a tools-only build compiles neither hyper, rmcp nor the A2A crates.
//!
//! | feature | adds | pulls in |
//! |---|---|---|
//! | `a2a` | `agent`: `#[agent]`, `agent_executor!`, `ToolAgent`, `serve` | `a2a-protocol-server` 0.15, `a2a-protocol-types`, hyper |
//! | `a2a-client` | `a2a` plus `A2aToolExecutor`: an A2A agent's skills as tools | `a2a`, `a2a-protocol-client` 0.15 (no default features) |
//! | `mcp` | `mcp`: `McpServer` on stdio, `McpToolExecutor` for stdio servers | `rmcp` (server, client, child process) |
//! | `mcp-http` | `mcp` plus streamable HTTP both ways | `mcp`, hyper, hyper-util, reqwest (plain HTTP) |
//! | `subprocess` | `subprocess`: `SubprocessToolExecutor` | `nix` (process groups, Unix) |
//! | `request-state` | `elicit::StateKeys`: sealed MCP 2026-07-28 `requestState`, so questions work on 2026-07-28 and across replicas | `aes-gcm` 0.10, `sha2`, `base64` |
//! | `anyhow` | `From<anyhow::Error> for ToolFailure` | `anyhow` |
//! | `car-ir` | `car`: car-ir conversions, `car_executor!` (car-engine's `ToolExecutor`) | `car-ir` 0.60 (chrono, uuid, schemars 0.8) |
//! | `car-ws` | `car::CarHost`: our tools hosted for a car daemon over its WebSocket protocol | `tokio-tungstenite` 0.27 (plain `ws://`), no car crate |

#![cfg_attr(docsrs, feature(doc_cfg))]

#[cfg(feature = "a2a")]
#[cfg_attr(docsrs, doc(cfg(feature = "a2a")))]
pub mod agent;
pub mod auth;
mod base64;
#[cfg(any(feature = "car-ir", feature = "car-ws"))]
#[cfg_attr(docsrs, doc(cfg(any(feature = "car-ir", feature = "car-ws"))))]
pub mod car;
pub mod catalog;
pub mod contract;
pub mod elicit;
pub mod failure;
#[cfg(feature = "mcp")]
#[cfg_attr(docsrs, doc(cfg(feature = "mcp")))]
pub mod mcp;
mod millis;
pub mod provider;
pub mod runtime;
pub mod schema;
pub mod search;
#[cfg(feature = "subprocess")]
#[cfg_attr(docsrs, doc(cfg(feature = "subprocess")))]
pub mod subprocess;
pub mod task;
pub mod tool;
pub mod transform;
mod transport;

#[doc(hidden)]
#[path = "private.rs"]
pub mod __private;

pub use failure::{Classification, FailureKind, ToolFailure};
pub use tool::{
    ChunkDropped, ContextExecutor, Tool, ToolAnnotations, ToolContext, ToolExecution, ToolExecutor,
    ToolSet, ToolSpec, ToolStreamChunk,
};
/// `#[derive(ToolFailure)]`, beside the type of the same name (derives and types live in
/// different namespaces, as with serde's `Serialize`).
pub use tool_executor_macros::ToolFailure;
#[cfg(feature = "a2a")]
#[cfg_attr(docsrs, doc(cfg(feature = "a2a")))]
pub use tool_executor_macros::{agent, agent_executor};
pub use tool_executor_macros::{prompt, prompts, resource, resources, tool, tools, toolset};

#[cfg(feature = "a2a-client")]
#[cfg_attr(docsrs, doc(cfg(feature = "a2a-client")))]
pub use agent::A2aToolExecutor;
#[cfg(feature = "mcp")]
#[cfg_attr(docsrs, doc(cfg(feature = "mcp")))]
pub use mcp::{McpServer, McpServerConfig, McpToolExecutor};
#[cfg(feature = "subprocess")]
#[cfg_attr(docsrs, doc(cfg(feature = "subprocess")))]
pub use subprocess::{SubprocessTool, SubprocessToolExecutor};

/// What every tool author needs: `use tool_executor::prelude::*;`.
///
/// The macros, the context a tool takes, its failure type (and derive), and the executor
/// trait whose methods call tools. Nothing else: the names `Tool` and `ToolSet` would clash
/// with `rmcp::model::Tool` and `rig::tool::{Tool, ToolSet}` in crates that use those too, so
/// import `tool_executor::{ToolSet, …}` by name where you need them (`#[tool]` gives every
/// tool an inherent `spec()`, so the `Tool` trait is rarely needed).
pub mod prelude {
    pub use crate::{
        ToolContext, ToolExecutor, ToolFailure, catalog, prompt, prompts, resource, resources,
        tool, tools, toolset,
    };
    pub use serde_json::json;
}
