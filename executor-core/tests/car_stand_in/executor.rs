/// Trait for tool execution. Implement this to provide tools to the runtime.
///
/// In-process: implement directly with function calls.
/// Daemon mode: implement by sending JSON-RPC to the client.
#[async_trait::async_trait]
pub trait ToolExecutor: Send + Sync {
    async fn execute(&self, tool: &str, params: &Value) -> Result<Value, String>;

    /// Variant that also carries the originating proposal `Action.id`
    /// and its `timeout_ms` budget.
    ///
    /// `action_id`: WS-based executors (`car-server-core::WsToolExecutor`)
    /// use it so the daemon-initiated `tools.execute` request to the client
    /// carries the same id the host's process-wide handler is keyed on
    /// — without this round-trip the host can't disambiguate concurrent
    /// callbacks for the same tool (Parslee-ai/car-releases#43 follow-up).
    ///
    /// `timeout_ms`: the action's per-call budget. WS executors MUST bound
    /// their callback wait by this (falling back to a default when `None`)
    /// so the daemon→host wait and the executor's own action deadline stay
    /// coordinated — otherwise a hardcoded inner wait reaps a call the outer
    /// deadline still permits (Parslee-ai/car#259). In-process executors
    /// that don't need either can keep the default forward to [`execute`](crate::executor::ToolExecutor::execute).
    async fn execute_with_action(
        &self,
        tool: &str,
        params: &Value,
        _action_id: &str,
        _timeout_ms: Option<u64>,
    ) -> Result<Value, String> {
        self.execute(tool, params).await
    }

    /// Variant that also carries the Runtime execution session and the retry
    /// attempt. Executors that retain safety-relevant state across calls (such
    /// as a read-before-edit ledger) override this to keep that state isolated
    /// by session. Existing executors retain their current behavior through the
    /// default delegation.
    ///
    /// `attempt` is **1-based**: `1` on the first try, `2` on the first retry.
    /// WS executors surface it on the `tools.execute` payload so a host can
    /// tell which retry it is serving — `action_id` cannot, being neither
    /// unique across attempts nor varying between them.
    ///
    /// It is threaded from `execute_with_retry`'s own counter rather than
    /// synthesized here. It was previously hardcoded to `1` at the one place
    /// that put it on the wire, which made the field a constant and any join
    /// built on it silently degenerate (Parslee-ai/car#928).
    async fn execute_with_action_in_session(
        &self,
        tool: &str,
        params: &Value,
        action_id: &str,
        timeout_ms: Option<u64>,
        _session_id: Option<&str>,
        _attempt: u32,
    ) -> Result<Value, String> {
        self.execute_with_action(tool, params, action_id, timeout_ms)
            .await
    }

    /// Execute one action while allowing a transport to return runtime-observed
    /// state mutations alongside its ordinary tool output.
    ///
    /// The default preserves every direct/internal executor: its existing
    /// output is wrapped with no mutations, and declared `expected_effects`
    /// remain assertions rather than writes. A transport that overrides this
    /// method must validate its mutation envelope against `expected_effects`
    /// before returning. The Runtime repeats the key-set and I-JSON checks and
    /// applies accepted changes through its own [`StateStore`].
    async fn execute_with_action_state_in_session(
        &self,
        tool: &str,
        params: &Value,
        action_id: &str,
        timeout_ms: Option<u64>,
        session_id: Option<&str>,
        attempt: u32,
        _expected_effects: &HashMap<String, Value>,
        _return_schema: Option<&Value>,
    ) -> Result<ToolExecution, String> {
        self.execute_with_action_in_session(
            tool, params, action_id, timeout_ms, session_id, attempt,
        )
        .await
        .map(ToolExecution::output_only)
    }

    /// Execute one action with typed failure evidence.
    ///
    /// This is a new default-delegating layer rather than a signature change
    /// to the existing execution methods. Existing executors therefore retain
    /// their exact behavior: every legacy string error becomes an ordinary,
    /// non-terminal failure. Executors opt into fail-stop behavior only by
    /// overriding this method and returning [`ToolFailure::terminal`].
    ///
    /// The runtime runs its built-in tool instead only for a failure that
    /// [`ToolFailure::is_unhandled`]. The default conversion keeps the legacy
    /// `"unknown tool"` string sentinel for in-process executors. An executor
    /// that relays another process's errors (a WS client, an MCP server) must
    /// override this method and return [`ToolFailure::ordinary`] for them, so a
    /// peer's text can never pick the built-in (Parslee-ai/car#3104).
    async fn execute_classified(
        &self,
        tool: &str,
        params: &Value,
        action_id: &str,
        timeout_ms: Option<u64>,
        session_id: Option<&str>,
        attempt: u32,
        expected_effects: &HashMap<String, Value>,
        return_schema: Option<&Value>,
    ) -> Result<ToolExecution, ToolFailure> {
        self.execute_with_action_state_in_session(
            tool,
            params,
            action_id,
            timeout_ms,
            session_id,
            attempt,
            expected_effects,
            return_schema,
        )
        .await
        .map_err(ToolFailure::from)
    }

    /// Streaming entry point for detached invocation modes (C2). Start
    /// the tool and return a channel of [`car_ir::ToolStreamChunk`]s; the
    /// runtime drains it into the per-runtime handle registry while the
    /// DAG proceeds. End the stream with a terminal chunk (`done` /
    /// `error`); dropping the sender without one is reported as failure.
    /// A cooperative executor should stop work when the receiver returned
    /// here is dropped (that's what cancellation looks like from its side).
    ///
    /// Default: unsupported — existing one-shot executors compile and
    /// behave unchanged; a detached action against them is rejected with
    /// this error.
    async fn execute_stream(
        &self,
        tool: &str,
        _params: &Value,
        _action_id: &str,
    ) -> Result<tokio::sync::mpsc::Receiver<car_ir::ToolStreamChunk>, String> {
        Err(format!(
            "tool '{tool}': this executor does not support streaming/long-running invocation"
        ))
    }
}

/// Result of a tool dispatch before the Runtime commits observed state.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolExecution {
    pub output: Value,
    pub state_changes: HashMap<String, Value>,
}

impl ToolExecution {
    pub fn output_only(output: Value) -> Self {
        Self {
            output,
            state_changes: HashMap::new(),
        }
    }
}
