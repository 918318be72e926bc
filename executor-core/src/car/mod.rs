//! Our tools for car: inside car-engine's own `Runtime` (feature `car-ir`, this page), or
//! hosted for a car daemon over its WebSocket protocol ([`CarHost`], feature `car-ws`, see
//! [`host`](mod@host)). Which to use when: README.md, "The car bridge" and "The car daemon
//! host".
//!
//! # In-process (feature `car-ir`)
//!
//! car-engine 0.60's `ToolExecutor` is the seed trait ours mirrors, but car's `Runtime` takes
//! `Arc<dyn car_engine::ToolExecutor>`, a different trait, and only runs tools it has
//! registered. This crate never depends on car-engine (about 430 crates with native build
//! scripts); it depends on car-ir (the types both sides name) and gives the car user two
//! things:
//!
//! - conversions between our types and car-ir's (`From` impls, both ways, listed below);
//! - [`car_executor!`](crate::car_executor), a macro the car user expands in their own crate
//!   (which depends on car-engine and async-trait): a newtype over
//!   `Arc<dyn tool_executor::ToolExecutor>` that implements `car_engine::ToolExecutor`, and
//!   `register_all(&runtime)`, which registers every spec.
//!
//! # The bridge
//!
//! The user's crate (`Cargo.toml`: `car-engine = "=0.60"`, `async-trait = "0.1"`,
//! `tool-executor = { version = "0.1", features = ["car-ir"] }`):
//!
//! ```text
//! use std::sync::Arc;
//! use tool_executor::prelude::*;
//!
//! tool_executor::car_executor!(
//!     /// Our tools, as car sees them.
//!     pub CarTools
//! );
//!
//! /// Adds two numbers.
//! #[tool(read_only)]
//! async fn add(a: i64, b: i64) -> i64 { a + b }
//!
//! # async fn run() {
//! let tools = CarTools::new(toolset![add]);
//! let runtime = car_engine::Runtime::new().with_executor(Arc::new(tools.clone()));
//! tools.register_all(&runtime).await; // car's validator rejects unregistered tools
//!
//! let proposal: car_ir::ActionProposal = serde_json::from_value(serde_json::json!({
//!     "actions": [{"type": "tool_call", "tool": "add", "parameters": {"a": 2, "b": 40}}],
//! })).unwrap();
//! let result = runtime.execute(&proposal).await;
//! assert_eq!(result.results[0].output, Some(serde_json::json!(42)));
//! # }
//! ```
//!
//! That block is text because this crate's doctests cannot depend on car-engine; the same
//! code is compiled and run against car's real `Runtime` by `integration/car/` (its
//! `src/lib.rs` expands the macro, its tests drive every path below; `bash .ci/car-check.sh`).
//! `tests/car_bridge.rs` expands the macro against a verbatim copy of car-engine 0.60's trait
//! on every `cargo test --workspace --all-features`, and the script checks that copy against
//! car-engine's source.
//!
//! Every one of car's six methods goes into our [`execute_classified`] with what it carried, so
//! a [`ContextExecutor`] (a `ToolSet`, a `#[tools]` type, our `Runtime`, the MCP and
//! subprocess executors) gets one `call` with the full context:
//!
//! | car-engine calls | our tool sees |
//! |---|---|
//! | `execute_classified` (what car's `Runtime` calls) | action id, `timeout_ms` as the deadline, session, 1-based attempt, expected effects; the return schema is passed on; the state changes the tool records come back as car's `state_changes` |
//! | `execute_with_action_state_in_session` | the same; a failure as its car text |
//! | `execute_with_action_in_session`, `execute_with_action`, `execute` | what each carries (`execute`: nothing, attempt 1); the output alone, a failure as its car text |
//! | `execute_stream` (detached actions) | our `execute_stream`; its chunks relayed into car's channel; car dropping the receiver (a cancelled handle) drops ours, which drops the tool's future |
//!
//! A dropped future (car's per-attempt timeout) drops our call with it. car retries ordinary
//! failures, stops the proposal on terminal ones and runs its built-in tools for unhandled
//! ones: our classes map to car's one to one, so our unknown tools fall through and a
//! failure relayed from a peer never does.
//!
//! # Conversions
//!
//! | ours | car-ir's | what crosses |
//! |---|---|---|
//! | [`ToolFailure`] | `car_ir::ToolFailure` | class both ways (ordinary, terminal, unhandled); code, kind, retry hint and data in the message's marker |
//! | [`ToolStreamChunk`] | `car_ir::ToolStreamChunk` | the same serde shape; our `error` chunk's code, class and retry hint in the message's marker |
//! | [`ToolSpec`] | `car_ir::ToolSchema` (one way) | name, description, input schema as `parameters`, output schema as `returns`, `idempotent` from the idempotent or read-only hint; car has no field for the other hints, the failure codes or the tool's timeout (which still holds inside the call) |
//!
//! **The marker.** car's failure and `error` chunk carry a message and a class, nothing
//! else. What else our side knows follows the message: `" [executor/failure "`
//! ([`FAILURE_MARKER`]), one compact JSON object, `"]"`, at the very end of the message. Its
//! keys are those of [`failure::transport::structured`](crate::failure::transport::structured):
//! `code`, `kind`, `classification`, `retry_after_ms` (optional) and `data` (optional; never
//! for a redacted failure); an `error` chunk's marker has `code`, `classification` and
//! `retry_after_ms`. A failure with nothing beyond message and class (code `tool_error`,
//! kind `tool`) gets no marker. Converting back strips the marker and restores the details;
//! the class always comes from car's own fields, never from the marker, so text cannot make a
//! failure terminal or unhandled.
//!
//! ```
//! # #[cfg(feature = "car-ir")] {
//! use tool_executor::{FailureKind, ToolFailure};
//! use serde_json::json;
//! use std::time::Duration;
//!
//! let ours = ToolFailure::ordinary("weather service unavailable")
//!     .with_code("unavailable")
//!     .with_retry_after(Duration::from_millis(200));
//! let car = car_ir::ToolFailure::from(&ours);
//! assert_eq!(
//!     car.message,
//!     r#"weather service unavailable [executor/failure {"classification":"ordinary","code":"unavailable","kind":"tool","retry_after_ms":200}]"#,
//! );
//! assert!(!car.is_terminal());
//! assert_eq!(ToolFailure::from(&car), ours);
//!
//! // car's own failures map by class.
//! let timed_out = ToolFailure::from(car_ir::ToolFailure::ordinary("action timed out after 50ms"));
//! assert_eq!((timed_out.message(), timed_out.kind()), ("action timed out after 50ms", FailureKind::Tool));
//! # }
//! ```
//!
//! [`execute_classified`]: crate::tool::ToolExecutor::execute_classified
//! [`ContextExecutor`]: crate::tool::ContextExecutor
//! [`ToolFailure`]: struct@crate::failure::ToolFailure
//! [`ToolStreamChunk`]: crate::tool::ToolStreamChunk
//! [`ToolSpec`]: crate::tool::ToolSpec

#[cfg(feature = "car-ir")]
pub(crate) mod bridge;
#[cfg(feature = "car-ir")]
mod convert;
#[cfg(feature = "car-ws")]
#[cfg_attr(docsrs, doc(cfg(feature = "car-ws")))]
pub mod host;

pub use crate::failure::transport::CAR_FAILURE_MARKER as FAILURE_MARKER;
#[cfg(feature = "car-ws")]
pub use host::{CarHost, CarHostError, CarSession};

/// Bridges our executors into car-engine: expand it in a crate that depends on `car-engine`
/// 0.60 and `async-trait`. See [the `car` module](crate::car) for what each method carries
/// and a complete example.
///
/// `car_executor!(CarTools);` (attributes and a visibility may precede the name) defines
/// `struct CarTools(pub Arc<dyn tool_executor::ToolExecutor>)`, `Clone`, with
///
/// - `CarTools::new(executor)` and `From<Arc<dyn ToolExecutor>>`;
/// - `async fn register_all(&self, runtime: &car_engine::Runtime)`: registers every spec
///   the executor lists (`register_tool_schema`), which car's validator requires;
/// - `#[async_trait] impl car_engine::ToolExecutor for CarTools`: all six methods, each one
///   call into this crate with what car passed.
#[cfg(feature = "car-ir")]
#[macro_export]
#[cfg_attr(docsrs, doc(cfg(feature = "car-ir")))]
macro_rules! car_executor {
    ($(#[$attr:meta])* $vis:vis $name:ident $(;)?) => {
        $(#[$attr])*
        #[derive(Clone)]
        $vis struct $name(pub $crate::__private::Arc<dyn $crate::tool::ToolExecutor>);

        const _: () = {
            use $crate::__private as __rt;
            use __rt::car::{HashMap, Seed, car_ir};

            impl $name {
                /// Bridges `executor` into car-engine.
                #[must_use]
                pub fn new(executor: impl $crate::tool::ToolExecutor + 'static) -> Self {
                    Self(__rt::Arc::new(executor))
                }

                /// Registers every tool the executor lists with `runtime`, whose validator
                /// rejects actions that call unregistered tools.
                pub async fn register_all(&self, runtime: &::car_engine::Runtime) {
                    for schema in __rt::car::schemas(&*self.0) {
                        runtime.register_tool_schema(schema).await;
                    }
                }
            }

            impl ::core::convert::From<__rt::Arc<dyn $crate::tool::ToolExecutor>> for $name {
                fn from(executor: __rt::Arc<dyn $crate::tool::ToolExecutor>) -> Self {
                    Self(executor)
                }
            }

            fn car_execution(execution: __rt::ToolExecution) -> ::car_engine::ToolExecution {
                ::car_engine::ToolExecution {
                    output: execution.output,
                    state_changes: execution.state_changes,
                }
            }

            #[::async_trait::async_trait]
            impl ::car_engine::ToolExecutor for $name {
                async fn execute(
                    &self,
                    tool: &str,
                    params: &__rt::Value,
                ) -> __rt::Result<__rt::Value, __rt::String> {
                    __rt::car::output(&*self.0, tool, params, Seed::default()).await
                }

                async fn execute_with_action(
                    &self,
                    tool: &str,
                    params: &__rt::Value,
                    action_id: &str,
                    timeout_ms: __rt::Option<u64>,
                ) -> __rt::Result<__rt::Value, __rt::String> {
                    let seed = Seed::action(action_id, timeout_ms);
                    __rt::car::output(&*self.0, tool, params, seed).await
                }

                async fn execute_with_action_in_session(
                    &self,
                    tool: &str,
                    params: &__rt::Value,
                    action_id: &str,
                    timeout_ms: __rt::Option<u64>,
                    session_id: __rt::Option<&str>,
                    attempt: u32,
                ) -> __rt::Result<__rt::Value, __rt::String> {
                    let seed = Seed::action(action_id, timeout_ms).in_session(session_id, attempt);
                    __rt::car::output(&*self.0, tool, params, seed).await
                }

                async fn execute_with_action_state_in_session(
                    &self,
                    tool: &str,
                    params: &__rt::Value,
                    action_id: &str,
                    timeout_ms: __rt::Option<u64>,
                    session_id: __rt::Option<&str>,
                    attempt: u32,
                    expected_effects: &HashMap<__rt::String, __rt::Value>,
                    return_schema: __rt::Option<&__rt::Value>,
                ) -> __rt::Result<::car_engine::ToolExecution, __rt::String> {
                    let seed = Seed::action(action_id, timeout_ms)
                        .in_session(session_id, attempt)
                        .with_state(expected_effects, return_schema);
                    let execution = __rt::car::stateful(&*self.0, tool, params, seed).await;
                    execution.map(car_execution)
                }

                async fn execute_classified(
                    &self,
                    tool: &str,
                    params: &__rt::Value,
                    action_id: &str,
                    timeout_ms: __rt::Option<u64>,
                    session_id: __rt::Option<&str>,
                    attempt: u32,
                    expected_effects: &HashMap<__rt::String, __rt::Value>,
                    return_schema: __rt::Option<&__rt::Value>,
                ) -> __rt::Result<::car_engine::ToolExecution, car_ir::ToolFailure> {
                    let seed = Seed::action(action_id, timeout_ms)
                        .in_session(session_id, attempt)
                        .with_state(expected_effects, return_schema);
                    let execution = __rt::car::classified(&*self.0, tool, params, seed).await;
                    execution.map(car_execution)
                }

                async fn execute_stream(
                    &self,
                    tool: &str,
                    params: &__rt::Value,
                    action_id: &str,
                ) -> __rt::Result<__rt::Receiver<car_ir::ToolStreamChunk>, __rt::String> {
                    __rt::car::stream(&*self.0, tool, params, action_id).await
                }
            }
        };
    };
}

#[cfg(all(test, feature = "car-ir"))]
mod tests;
