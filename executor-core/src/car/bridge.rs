//! What `car_executor!`'s methods call: each of car-engine's six `ToolExecutor` methods
//! becomes one call of ours, with everything the method carried. Reached only through
//! `__private::car`; the macro body stays a list of one-line forwards.

use std::collections::HashMap;

use serde_json::Value;
use tokio::sync::mpsc;

use crate::tool::{STREAM_CAPACITY, ToolExecution, ToolExecutor, ToolStreamChunk};

/// What one of car's methods carried: the action id and its `timeout_ms` budget, the session
/// and the 1-based attempt, the expected effects and the return schema. car's plain `execute`
/// carries none of them ([`Seed::default`]: no ids, attempt 1).
#[derive(Debug, Clone, Copy)]
pub struct Seed<'a> {
    action_id: &'a str,
    timeout_ms: Option<u64>,
    session_id: Option<&'a str>,
    attempt: u32,
    expected_effects: Option<&'a HashMap<String, Value>>,
    return_schema: Option<&'a Value>,
}

impl Default for Seed<'_> {
    fn default() -> Self {
        Self {
            action_id: "",
            timeout_ms: None,
            session_id: None,
            attempt: 1,
            expected_effects: None,
            return_schema: None,
        }
    }
}

impl<'a> Seed<'a> {
    /// `execute_with_action`'s arguments.
    #[must_use]
    pub fn action(action_id: &'a str, timeout_ms: Option<u64>) -> Self {
        Self {
            action_id,
            timeout_ms,
            ..Self::default()
        }
    }

    /// Adds `execute_with_action_in_session`'s session and attempt.
    #[must_use]
    pub const fn in_session(mut self, session_id: Option<&'a str>, attempt: u32) -> Self {
        self.session_id = session_id;
        self.attempt = attempt;
        self
    }

    /// Adds the expected effects and return schema of car's state-carrying methods.
    #[must_use]
    pub const fn with_state(
        mut self,
        expected_effects: &'a HashMap<String, Value>,
        return_schema: Option<&'a Value>,
    ) -> Self {
        self.expected_effects = Some(expected_effects);
        self.return_schema = return_schema;
        self
    }
}

/// The one path: our `execute_classified` with everything `seed` carried (a
/// [`ContextExecutor`](crate::tool::ContextExecutor) turns that into one `call` with the full
/// context), its failure as car's typed failure.
///
/// # Errors
/// The tool's failure, converted: class and unhandled flag in car's fields, code, kind,
/// retry hint and data in the message's marker.
pub async fn classified(
    executor: &dyn ToolExecutor,
    tool: &str,
    params: &Value,
    seed: Seed<'_>,
) -> Result<ToolExecution, car_ir::ToolFailure> {
    let none = HashMap::new();
    executor
        .execute_classified(
            tool,
            params,
            seed.action_id,
            seed.timeout_ms,
            seed.session_id,
            seed.attempt,
            seed.expected_effects.unwrap_or(&none),
            seed.return_schema,
        )
        .await
        .map_err(|failure| car_ir::ToolFailure::from(&failure))
}

/// [`classified`] for `execute_with_action_state_in_session`, which keeps the state changes
/// and returns failures as text.
///
/// # Errors
/// The text car's typed failure would carry (message and marker).
pub async fn stateful(
    executor: &dyn ToolExecutor,
    tool: &str,
    params: &Value,
    seed: Seed<'_>,
) -> Result<ToolExecution, String> {
    classified(executor, tool, params, seed)
        .await
        .map_err(|failure| failure.message)
}

/// [`stateful`] for car's string layers that return the output alone.
///
/// # Errors
/// The text car's typed failure would carry (message and marker).
pub async fn output(
    executor: &dyn ToolExecutor,
    tool: &str,
    params: &Value,
    seed: Seed<'_>,
) -> Result<Value, String> {
    let execution = stateful(executor, tool, params, seed).await;
    execution.map(|execution| execution.output)
}

/// car's `execute_stream`: our stream of `tool`, relayed chunk by chunk into a channel of
/// car's chunks by a task. When car drops its receiver (a cancelled handle), the task drops
/// ours, which drops the tool's future.
///
/// # Errors
/// When `executor` does not stream (its own refusal) or when called outside a Tokio runtime.
pub async fn stream(
    executor: &dyn ToolExecutor,
    tool: &str,
    params: &Value,
    action_id: &str,
) -> Result<mpsc::Receiver<car_ir::ToolStreamChunk>, String> {
    let runtime = tokio::runtime::Handle::try_current()
        .map_err(|_| format!("tool '{tool}': streaming needs a Tokio runtime"))?;
    let ours = executor.execute_stream(tool, params, action_id).await?;
    let (tx, theirs) = mpsc::channel(STREAM_CAPACITY);
    runtime.spawn(relay(ours, tx));
    Ok(theirs)
}

/// Forwards every chunk until our stream ends or car's receiver is gone; returning drops
/// `ours`, which cancels the tool.
async fn relay(
    mut ours: mpsc::Receiver<ToolStreamChunk>,
    theirs: mpsc::Sender<car_ir::ToolStreamChunk>,
) {
    loop {
        let chunk = tokio::select! {
            chunk = ours.recv() => chunk,
            () = theirs.closed() => return,
        };
        let Some(chunk) = chunk else { return };
        if theirs.send(chunk.into()).await.is_err() {
            return;
        }
    }
}

/// Every spec `executor` lists, as the schemas car's `Runtime` must register before its
/// validator lets an action call them.
#[must_use]
pub fn schemas(executor: &dyn ToolExecutor) -> Vec<car_ir::ToolSchema> {
    executor
        .specs()
        .iter()
        .map(|spec| car_ir::ToolSchema::from(&**spec))
        .collect()
}
