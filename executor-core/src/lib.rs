//! # executor-core
//!
//! Turn plain Rust functions into tools an LLM agent can call. One attribute gives a function
//! a name, a description (its doc comment), JSON Schemas for its parameters and its result, a
//! typed failure mapping and a dispatch entry behind the [`ToolExecutor`] trait.
//!
//! ```
//! use executor_core::prelude::*;
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
//! assert_eq!(err, "a: expected i64, got string \"two\"");
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
//! use executor_core::prelude::*;
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
//! use executor_core::prelude::*;
//! /// Not allowed: tools are functions.
//! #[tool]
//! struct NotAFunction;
//! ```
//!
//! ```compile_fail
//! use executor_core::prelude::*;
//! /// Adds.
//! #[tool] fn add(a: i64, b: i64) -> i64 { a + b }
//! mod other {
//!     use executor_core::prelude::*;
//!     /// Also named `add`.
//!     #[tool(name = "add")] pub fn plus(a: i64) -> i64 { a }
//! }
//! let tools = toolset![add, other::plus]; // two tools named `add`
//! ```
//!
//! ## Map of the crate
//! - [`ToolExecutor`]: the seed contract plus [`ToolExecutor::execute_with_context`], the one
//!   path generated executors funnel every method into.
//! - [`ToolSet`]: free-fn tools and executors behind one name-dispatching executor.
//! - [`ToolFailure`]: ordinary / terminal / unhandled, with a code, kind, retry hint and data.
//! - [`ToolContext`]: ids, attempt, deadline, cancellation, progress and state changes.
//! - [`schema`]: the canonical JSON Schemas and the argument decoder.

#![cfg_attr(docsrs, feature(doc_cfg))]

pub mod failure;
#[cfg(feature = "mcp")]
#[cfg_attr(docsrs, doc(cfg(feature = "mcp")))]
pub mod mcp;
pub mod schema;
#[cfg(feature = "subprocess")]
#[cfg_attr(docsrs, doc(cfg(feature = "subprocess")))]
pub mod subprocess;
pub mod tool;

#[doc(hidden)]
#[path = "private.rs"]
pub mod __private;

pub use executor_macros::{tool, tools, toolset};
pub use failure::{Classification, FailureKind, REDACTED_MESSAGE, ToolFailure};
pub use tool::{
    BoxFuture, DuplicateTool, FnTool, STREAM_CAPACITY, SpecList, Tool, ToolAnnotations, ToolContext,
    ToolExecution, ToolExecutor, ToolSet, ToolSetBuilder, ToolSpec, ToolStreamChunk, spawn_stream,
};

#[cfg(feature = "mcp")]
pub use mcp::{McpServer, McpServerConfig, McpToolExecutor};
#[cfg(feature = "subprocess")]
pub use subprocess::{SubprocessTool, SubprocessToolExecutor};

/// Re-exports for tool authors: `use executor_core::prelude::*;`.
pub mod prelude {
    pub use crate::{
        Tool, ToolContext, ToolExecution, ToolExecutor, ToolFailure, ToolSet, ToolSpec, ToolStreamChunk, tool, tools,
        toolset,
    };
    pub use serde_json::json;
}
