//! car's daemon protocol as this host speaks it: the shapes of car-proto 0.60 and
//! car-server-core 0.60 (`ToolDefinition`, `ToolExecuteRequest`, `ToolCancelRequest`, the
//! handshake), written here so this crate depends on no car crate. `tests/car_host.rs` checks
//! them against verbatim copies of car's source; `.ci/car-check.sh` checks those copies.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use crate::failure::ToolFailure;
use crate::failure::transport::{for_car, structured};
use crate::tool::{ToolExecution, ToolSpec};

/// The daemon protocol version this host speaks (car-proto's `PROTOCOL_VERSION`).
pub const PROTOCOL_VERSION: u32 = 3;

/// The capability under which the daemon takes `{output, state_changes}` answers
/// (car-proto's `TOOLS_CALLBACK_STATE_CAPABILITY`).
pub const CALLBACK_STATE_CAPABILITY: &str = "tools.callback-state.v1";

/// JSON-RPC error: a method was called before `server.handshake`.
pub const HANDSHAKE_REQUIRED: i64 = -32005;
/// JSON-RPC error: no protocol version in common.
pub const VERSION_MISMATCH: i64 = -32006;
/// JSON-RPC error: the daemon lacks a capability the client requires.
pub const CAPABILITY_MISMATCH: i64 = -32008;
/// The JSON-RPC code of our failure answers (what car's own hosts send).
pub const TOOL_FAILURE_CODE: i64 = -32000;

/// One tool as `tools.register` takes it (car-proto's `ToolDefinition`): name, description,
/// the input schema as `parameters`, the output schema as `returns`, and `idempotent` when the
/// annotations say idempotent or read-only. car has no field for the other hints, the failure
/// codes or the tool's own timeout (which still holds inside the call); `cache_ttl_secs` and
/// `rate_limit` stay unset.
#[must_use]
pub fn tool_definition(spec: &ToolSpec) -> Value {
    let hints = &spec.annotations;
    let mut definition = Map::new();
    definition.insert("name".into(), spec.name.clone().into());
    definition.insert("description".into(), spec.description.clone().into());
    definition.insert("parameters".into(), spec.input_schema.clone());
    if let Some(returns) = &spec.output_schema {
        definition.insert("returns".into(), returns.clone());
    }
    let idempotent = hints.idempotent == Some(true) || hints.read_only == Some(true);
    definition.insert("idempotent".into(), idempotent.into());
    Value::Object(definition)
}

/// `server.handshake`'s params: version 3, nothing required, `tools.callback-state.v1` wanted.
#[must_use]
pub fn handshake_params() -> Value {
    json!({
        "protocol_version": PROTOCOL_VERSION,
        "required_capabilities": [],
        "optional_capabilities": [CALLBACK_STATE_CAPABILITY],
        "client_version": concat!("tool-executor/", env!("CARGO_PKG_VERSION")),
    })
}

/// What the daemon asks in `tools.execute` (car-proto's `ToolExecuteRequest`).
#[derive(Debug, Clone, Deserialize)]
pub struct ExecuteParams {
    /// The proposal's action id (may be empty).
    #[serde(default)]
    pub action_id: String,
    /// The tool to run.
    pub tool: String,
    /// Its arguments.
    #[serde(default)]
    pub parameters: Value,
    /// The action's budget.
    #[serde(default)]
    pub timeout_ms: Option<u64>,
    /// car's 1-based attempt (0 from an old daemon means 1).
    #[serde(default)]
    pub attempt: u32,
    /// The routing id `tools.cancel` names.
    #[serde(default)]
    pub request_id: String,
    /// The daemon's execution session.
    #[serde(default)]
    pub session_id: Option<String>,
}

/// The `tools.cancel` notification's params (car-proto's `ToolCancelRequest`).
#[derive(Debug, Clone, Deserialize)]
pub struct CancelParams {
    /// The `request_id` of the `tools.execute` being reaped.
    pub request_id: String,
}

/// One JSON-RPC frame, either way.
#[derive(Debug, Default, Deserialize, Serialize)]
pub struct Frame {
    /// A request's or a notification's method.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub method: Option<String>,
    /// Its params.
    #[serde(default, skip_serializing_if = "Value::is_null")]
    pub params: Value,
    /// The id (`null` for a notification).
    #[serde(default)]
    pub id: Value,
    /// A response's result.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<Value>,
    /// A response's error.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<Value>,
}

/// A JSON-RPC request frame.
#[must_use]
pub fn request(id: u64, method: &str, params: &Value) -> String {
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}).to_string()
}

/// The answer to `tools.execute` `id` for a tool that returned: the output, or with
/// `callback-state.v1` negotiated the exact envelope `{output, state_changes}` (car unwraps it,
/// and checks the keys against the action's expected effects). Without the capability the
/// state changes cannot cross and the output goes alone.
#[must_use]
pub fn success(id: &Value, execution: ToolExecution, callback_state: bool) -> String {
    let result = if callback_state {
        json!({"output": execution.output, "state_changes": execution.state_changes})
    } else {
        execution.output
    };
    json!({"jsonrpc": "2.0", "id": id, "result": result}).to_string()
}

/// The answer to `tools.execute` `id` for a failure, by the failure table's car row: a
/// JSON-RPC error `-32000` whose message is car's text (the message and its marker) and whose
/// `data` is [`structured`]'s object plus `terminal`, the bit car reads.
#[must_use]
pub fn failure(id: &Value, failure: &ToolFailure) -> String {
    let car = for_car(failure);
    let mut data = match structured(failure) {
        Value::Object(data) => data,
        _ => Map::new(),
    };
    data.insert("terminal".into(), car.terminal.into());
    json!({
        "jsonrpc": "2.0",
        "id": id,
        "error": {"code": TOOL_FAILURE_CODE, "message": car.message, "data": data},
    })
    .to_string()
}

/// The answer to a request this host does not serve.
#[must_use]
pub fn method_not_found(id: &Value, method: &str) -> String {
    json!({
        "jsonrpc": "2.0",
        "id": id,
        "error": {"code": -32601, "message": format!("method not found: `{method}` (this is a tool host)")},
    })
    .to_string()
}
