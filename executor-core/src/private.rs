//! Everything generated code needs and users should not name. Not covered by semver; the macro
//! crate is pinned to this exact version of the runtime.

// Helpers called from generated code: `#[must_use]` and hasher-generic signatures would only
// add noise there.
#![allow(
    clippy::must_use_candidate,
    clippy::implicit_hasher,
    clippy::elidable_lifetime_names
)]

pub use ::core;
pub use ::schemars;
pub use ::serde;
pub use ::serde_json;
pub use ::serde_json::{Map, Value};
pub use ::std::boxed::Box;
pub use ::std::sync::{Arc, OnceLock};
pub use ::std::time::Duration;
pub use ::tokio::sync::mpsc::Receiver;

pub use crate::schema::args::{
    arguments, decode, describe, encode, missing, object, or_default, required, unknown,
};

// What generated code names as `__rt::…` (every expansion opens with
// `use ::executor_core::__private as __rt;`), so it needs no other path.
pub use crate::failure::{FailureCodes, FailureKind, ToolFailure};
pub use crate::schema::{InputSchema, literal, output_schema};
pub use crate::tool::drive::{drive, plain_call, with_context};
pub use crate::tool::{
    BoxFuture, FnTool, PlainFn, SpecList, Tool, ToolAnnotations, ToolContext, ToolExecution,
    ToolExecutor, ToolSet, ToolSpec, ToolStreamChunk,
};
pub use ::core::default::Default;
pub use ::core::option::Option::{self, None, Some};
pub use ::core::result::Result::{self, Err, Ok};
pub use ::std::borrow::Cow;
pub use ::std::string::String;
pub use ::std::vec;
pub use ::std::vec::Vec;

use std::collections::HashMap;

/// What `agent_executor!` and `#[agent]` expand to.
#[cfg(feature = "a2a")]
pub mod a2a {
    pub use crate::agent::{
        CardSpec, SkillSpec, default_cancel, run_cancel, run_execute, run_shutdown,
    };
}

use crate::tool::set::spawn_stream;

/// The context the seed methods carry, as a [`ToolContext`]. Allocates only for non-empty ids.
#[must_use]
#[inline]
pub fn seed_context(
    action_id: &str,
    timeout_ms: Option<u64>,
    session_id: Option<&str>,
    attempt: u32,
    expected_effects: Option<&HashMap<String, Value>>,
) -> ToolContext {
    // The common call carries nothing: skip the builder chain, which moves the context once
    // per step, and build it in place (measured in BENCHMARKS.md).
    if action_id.is_empty()
        && timeout_ms.is_none()
        && session_id.is_none()
        && attempt <= 1
        && expected_effects.is_none_or(HashMap::is_empty)
    {
        return ToolContext::new();
    }
    seed_context_with(action_id, timeout_ms, session_id, attempt, expected_effects)
}

fn seed_context_with(
    action_id: &str,
    timeout_ms: Option<u64>,
    session_id: Option<&str>,
    attempt: u32,
    expected_effects: Option<&HashMap<String, Value>>,
) -> ToolContext {
    let mut ctx = ToolContext::new()
        .with_action_id(action_id)
        .with_attempt(attempt)
        .with_timeout_ms(timeout_ms);
    if let Some(session) = session_id {
        ctx = ctx.with_session_id(session);
    }
    match expected_effects {
        Some(effects) if !effects.is_empty() => ctx.with_expected_effects(effects.clone()),
        _ => ctx,
    }
}

/// The seed's string-error layers over the typed path.
pub fn legacy<'a>(
    fut: BoxFuture<'a, Result<ToolExecution, ToolFailure>>,
) -> BoxFuture<'a, Result<Value, String>> {
    Box::pin(async move { fut.await.map(|e| e.output).map_err(|f| f.to_string()) })
}

/// The seed's string-error layer that keeps state changes.
pub fn legacy_state<'a>(
    fut: BoxFuture<'a, Result<ToolExecution, ToolFailure>>,
) -> BoxFuture<'a, Result<ToolExecution, String>> {
    Box::pin(async move { fut.await.map_err(|f| f.to_string()) })
}

/// Wraps a tool's encoded output with the state changes it recorded.
///
/// # Errors
/// A terminal failure when the recorded keys differ from the expected effects.
#[inline]
pub fn finish(output: Value, ctx: &ToolContext) -> Result<ToolExecution, ToolFailure> {
    Ok(ToolExecution {
        output,
        state_changes: ctx.take_state_changes()?,
    })
}

/// `toolset!`'s duplicate-name check, run by the compiler: `names` are the listed tools'
/// `Tool::NAME`s and `entries` their paths as written. `toolset!` calls it in a `const` for
/// each entry after the first, blamed on that entry.
///
/// # Panics
/// At compile time, when `names[index]` equals an earlier name: the message names the name and
/// both entries.
pub const fn check_unique_name(names: &[&str], entries: &[&str], index: usize) {
    let mut earlier = 0;
    while earlier < index {
        if str_eq(names[earlier], names[index]) {
            let mut message = ConstText::new();
            message.push("`");
            message.push(entries[index]);
            message.push("` and `");
            message.push(entries[earlier]);
            message.push("` in toolset! are both named \"");
            message.push(names[index]);
            message.push("\"; give one of them #[tool(name = \"…\")]");
            match message.as_str() {
                Some(text) => panic!("{}", text),
                None => panic!(
                    "two tools in toolset! have the same name; give one of them #[tool(name = \"…\")]"
                ),
            }
        }
        earlier += 1;
    }
}

/// A message built at compile time, in a fixed buffer (cut at its end).
struct ConstText {
    bytes: [u8; 512],
    len: usize,
}

impl ConstText {
    const fn new() -> Self {
        Self {
            bytes: [0; 512],
            len: 0,
        }
    }

    const fn push(&mut self, text: &str) {
        let text = text.as_bytes();
        let mut i = 0;
        while i < text.len() && self.len < self.bytes.len() {
            self.bytes[self.len] = text[i];
            self.len += 1;
            i += 1;
        }
    }

    /// `None` when the cut fell inside a character.
    const fn as_str(&self) -> Option<&str> {
        match core::str::from_utf8(self.bytes.split_at(self.len).0) {
            Ok(text) => Some(text),
            Err(_) => None,
        }
    }
}

const fn str_eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

pub use crate::failure::support::{
    AttachDebug, AttachError, AttachNone, AttachOwned, CodesProbe, DerivedCodes, NoCodes,
    SourceProbe, data_value, failure_message,
};

/// Names the parts of a `Result` return type, so aliases like `io::Result<T>` work.
pub trait ResultParts {
    /// The success type.
    type Ok;
    /// The error type.
    type Err;
    /// Back to a plain `Result`.
    fn into_result(self) -> Result<Self::Ok, Self::Err>;
}

impl<T, E> ResultParts for Result<T, E> {
    type Ok = T;
    type Err = E;
    #[inline]
    fn into_result(self) -> Result<T, E> {
        self
    }
}

/// Autoref specialization for `#[tools]` streaming: a `Clone + 'static` executor streams by
/// moving a clone into the task; any other gets a clear error naming the fix.
pub struct StreamProbe<'a, T>(pub &'a T);

/// Picked when the executor is `Clone + 'static`.
pub trait StreamByClone {
    /// Starts the stream.
    fn stream(
        &self,
        tool: &str,
        params: &Value,
        action_id: &str,
    ) -> BoxFuture<'static, Result<tokio::sync::mpsc::Receiver<ToolStreamChunk>, String>>;
}

impl<T: ToolExecutor + Clone + 'static> StreamByClone for StreamProbe<'_, T> {
    fn stream(
        &self,
        tool: &str,
        params: &Value,
        action_id: &str,
    ) -> BoxFuture<'static, Result<tokio::sync::mpsc::Receiver<ToolStreamChunk>, String>> {
        Box::pin(std::future::ready(spawn_stream(
            self.0.clone(),
            tool,
            params,
            action_id,
        )))
    }
}

/// Picked when the executor is not `Clone`.
pub trait StreamUnsupported {
    /// Refuses with the fix.
    fn stream(
        &self,
        tool: &str,
        params: &Value,
        action_id: &str,
    ) -> BoxFuture<'static, Result<tokio::sync::mpsc::Receiver<ToolStreamChunk>, String>>;
}

impl<T: ToolExecutor> StreamUnsupported for &StreamProbe<'_, T> {
    fn stream(
        &self,
        tool: &str,
        _params: &Value,
        _action_id: &str,
    ) -> BoxFuture<'static, Result<tokio::sync::mpsc::Receiver<ToolStreamChunk>, String>> {
        let message = format!(
            "tool '{tool}': `{}` is not `Clone`, so a streamed call cannot outlive the borrow; \
             derive `Clone` (share state behind an `Arc`) or stream it through a `ToolSet`",
            std::any::type_name::<T>()
        );
        Box::pin(std::future::ready(Err(message)))
    }
}

/// The seed methods, each funnelled into `execute_with_context`. Used inside
/// `impl ToolExecutor for …` by `ToolSet` and by `#[tools]`.
#[doc(hidden)]
#[macro_export]
macro_rules! __funnel_seed_methods {
    () => {
        fn execute<'a>(
            &'a self,
            tool: &'a str,
            params: &'a $crate::__private::Value,
        ) -> $crate::BoxFuture<'a, ::core::result::Result<$crate::__private::Value, ::std::string::String>> {
            $crate::__private::legacy(self.execute_with_context(tool, params, $crate::ToolContext::new()))
        }

        fn execute_with_action<'a>(
            &'a self,
            tool: &'a str,
            params: &'a $crate::__private::Value,
            action_id: &'a str,
            timeout_ms: ::core::option::Option<u64>,
        ) -> $crate::BoxFuture<'a, ::core::result::Result<$crate::__private::Value, ::std::string::String>> {
            let ctx = $crate::__private::seed_context(action_id, timeout_ms, ::core::option::Option::None, 1, ::core::option::Option::None);
            $crate::__private::legacy(self.execute_with_context(tool, params, ctx))
        }

        fn execute_with_action_in_session<'a>(
            &'a self,
            tool: &'a str,
            params: &'a $crate::__private::Value,
            action_id: &'a str,
            timeout_ms: ::core::option::Option<u64>,
            session_id: ::core::option::Option<&'a str>,
            attempt: u32,
        ) -> $crate::BoxFuture<'a, ::core::result::Result<$crate::__private::Value, ::std::string::String>> {
            let ctx = $crate::__private::seed_context(action_id, timeout_ms, session_id, attempt, ::core::option::Option::None);
            $crate::__private::legacy(self.execute_with_context(tool, params, ctx))
        }

        fn execute_with_action_state_in_session<'a>(
            &'a self,
            tool: &'a str,
            params: &'a $crate::__private::Value,
            action_id: &'a str,
            timeout_ms: ::core::option::Option<u64>,
            session_id: ::core::option::Option<&'a str>,
            attempt: u32,
            expected_effects: &'a ::std::collections::HashMap<::std::string::String, $crate::__private::Value>,
            _return_schema: ::core::option::Option<&'a $crate::__private::Value>,
        ) -> $crate::BoxFuture<'a, ::core::result::Result<$crate::ToolExecution, ::std::string::String>> {
            let ctx = $crate::__private::seed_context(action_id, timeout_ms, session_id, attempt, ::core::option::Option::Some(expected_effects));
            $crate::__private::legacy_state(self.execute_with_context(tool, params, ctx))
        }

        fn execute_classified<'a>(
            &'a self,
            tool: &'a str,
            params: &'a $crate::__private::Value,
            action_id: &'a str,
            timeout_ms: ::core::option::Option<u64>,
            session_id: ::core::option::Option<&'a str>,
            attempt: u32,
            expected_effects: &'a ::std::collections::HashMap<::std::string::String, $crate::__private::Value>,
            _return_schema: ::core::option::Option<&'a $crate::__private::Value>,
        ) -> $crate::BoxFuture<'a, ::core::result::Result<$crate::ToolExecution, $crate::ToolFailure>> {
            let ctx = $crate::__private::seed_context(action_id, timeout_ms, session_id, attempt, ::core::option::Option::Some(expected_effects));
            self.execute_with_context(tool, params, ctx)
        }
    };
}
