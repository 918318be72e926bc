//! The lock: what a set of tools promises, one entry per tool, as a stable, reviewable JSON
//! file.
//!
//! ```text
//! {
//!   "format": 1,
//!   "tools": {
//!     "<name>": {
//!       "annotations": {…},           // MCP's: title and hints (absent when none)
//!       "description": "…",
//!       "dialects": {"anthropic": {…}, "openai": {…}, …},  // each provider's rendering
//!       "failureCodes": ["…"],        // sorted (absent when none)
//!       "inputSchema": {…},
//!       "outputSchema": {…},          // absent when the tool declares none
//!       "scopes": ["…"],              // OAuth scopes a caller needs, sorted (absent when none)
//!       "timeoutMs": 1000,            // absent when the tool has no limit of its own
//!       "taskSupport": "required"     // "optional" or "required"; absent when never a task
//!     }
//!   }
//! }
//! ```
//!
//! Keys are sorted at every level and the file is pretty-printed, so a change shows as a small
//! textual diff. A field a later version adds (a task or approval flag) is one more key in a
//! tool's entry: a lock written before it reads as the field absent, and the comparison reports
//! the field's arrival under its own rule (unknown fields are compared as values and reported
//! for review, never ignored).

use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

use serde_json::{Map, Value, json};

use crate::provider::{Definitions, Provider};
use crate::task::TaskSupport;
use crate::tool::{ToolExecutor, ToolSet, ToolSpec};

/// The version of the lock's layout this crate writes and reads.
pub const FORMAT: u64 = 1;

/// A set's contract: per tool, its schemas, every provider's rendering, its hints, failure
/// codes, scopes, description and time limit ([`lock`](super) describes the file).
///
/// ```
/// use tool_executor::prelude::*;
/// use tool_executor::contract::Contract;
///
/// /// Adds two integers.
/// #[tool(read_only)]
/// fn add(a: i64, b: i64) -> i64 { a + b }
///
/// let tools = toolset![add];
/// let contract = tools.contract();
/// let entry = &contract.tools()["add"];
/// assert_eq!(entry["inputSchema"]["required"], json!(["a", "b"]));
/// assert_eq!(entry["dialects"]["openai"]["function"]["strict"], true);
/// // The file round-trips.
/// assert_eq!(Contract::from_json(&contract.to_json()).unwrap(), contract);
/// ```
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Contract {
    tools: BTreeMap<String, Value>,
}

impl Contract {
    /// The contract of `specs`.
    #[must_use]
    pub fn from_specs(specs: &[Arc<ToolSpec>]) -> Self {
        let tools = specs
            .iter()
            .map(|spec| (spec.name.clone(), entry(spec)))
            .collect();
        Self { tools }
    }

    /// The contract of everything `executor` lists ([`ToolExecutor::specs`]).
    #[must_use]
    pub fn of<E: ToolExecutor + ?Sized>(executor: &E) -> Self {
        Self::from_specs(&executor.specs())
    }

    /// Each tool's entry, by name.
    #[must_use]
    pub fn tools(&self) -> &BTreeMap<String, Value> {
        &self.tools
    }

    /// The lock file's text: pretty JSON, keys sorted, ending in a newline.
    #[must_use]
    pub fn to_json(&self) -> String {
        let tools: Map<String, Value> = self
            .tools
            .iter()
            .map(|(name, entry)| (name.clone(), sorted(entry)))
            .collect();
        let file = sorted(&json!({ "format": FORMAT, "tools": tools }));
        // Serializing a `Value` cannot fail (its keys are strings).
        serde_json::to_string_pretty(&file).unwrap_or_default() + "\n"
    }

    /// Reads a lock file's text.
    ///
    /// # Errors
    /// [`LockError`] when the text is not JSON, or not a lock of [`FORMAT`].
    pub fn from_json(text: &str) -> Result<Self, LockError> {
        let file: Value =
            serde_json::from_str(text).map_err(|e| LockError(format!("not JSON: {e}")))?;
        match file.get("format").and_then(Value::as_u64) {
            Some(FORMAT) => {}
            Some(other) => {
                return Err(LockError(format!(
                    "format {other}; this version reads format {FORMAT}"
                )));
            }
            None => return Err(LockError("no `format` number".into())),
        }
        let Some(Value::Object(tools)) = file.get("tools") else {
            return Err(LockError("no `tools` object".into()));
        };
        if let Some((name, _)) = tools.iter().find(|(_, entry)| !entry.is_object()) {
            return Err(LockError(format!("the entry of `{name}` is not an object")));
        }
        let tools = tools.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
        Ok(Self { tools })
    }
}

impl ToolSet {
    /// This set's [`Contract`]: write it with [`Contract::to_json`], or compare it with a
    /// checked-in lock with [`assert_contract!`](crate::assert_contract).
    #[must_use]
    pub fn contract(&self) -> Contract {
        Contract::from_specs(self.list())
    }
}

/// A lock file that cannot be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LockError(pub String);

impl fmt::Display for LockError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "not a tool contract lock: {}", self.0)
    }
}

impl std::error::Error for LockError {}

/// One tool's entry.
fn entry(spec: &ToolSpec) -> Value {
    let mut entry = Map::new();
    entry.insert("description".into(), spec.description.clone().into());
    entry.insert("inputSchema".into(), spec.input_schema.clone());
    if let Some(output) = &spec.output_schema {
        entry.insert("outputSchema".into(), output.clone());
    }
    let annotations = serde_json::to_value(&spec.annotations).unwrap_or_default();
    if annotations.as_object().is_some_and(|a| !a.is_empty()) {
        entry.insert("annotations".into(), annotations);
    }
    if !spec.failure_codes.is_empty() {
        let mut codes = spec.failure_codes.clone();
        codes.sort();
        codes.dedup();
        entry.insert("failureCodes".into(), codes.into());
    }
    if !spec.scopes.is_empty() {
        let mut scopes = spec.scopes.clone();
        scopes.sort();
        scopes.dedup();
        entry.insert("scopes".into(), scopes.into());
    }
    if let Some(timeout) = spec.timeout {
        let ms = u64::try_from(timeout.as_millis()).unwrap_or(u64::MAX);
        entry.insert("timeoutMs".into(), ms.into());
    }
    // Whether calls may or must be tasks (a task's TTL and poll interval are hints, not
    // contract).
    let support = spec.task_support();
    if support != TaskSupport::Forbidden {
        let text = serde_json::to_value(support).unwrap_or_default();
        entry.insert("taskSupport".into(), text);
    }
    entry.insert("dialects".into(), Value::Object(dialects(spec)));
    Value::Object(entry)
}

/// The tool as each provider declares it (Gemini's declaration taken out of its
/// `functionDeclarations` wrapper).
fn dialects(spec: &ToolSpec) -> Map<String, Value> {
    let one = [Arc::new(spec.clone())];
    let mut out = Map::new();
    for provider in Provider::ALL {
        // One tool cannot collide with another: `from_specs` fails only on a collision.
        let Ok(defs) = Definitions::from_specs(&one, provider) else {
            continue;
        };
        let first = defs.tools().get(0).cloned().unwrap_or_default();
        let declared = match first.get("functionDeclarations").and_then(|d| d.get(0)) {
            Some(declaration) => declaration.clone(),
            None => first,
        };
        out.insert(provider.as_str().into(), declared);
    }
    out
}

/// `value` with every object's keys in sorted order (whatever order `serde_json::Map` keeps).
fn sorted(value: &Value) -> Value {
    match value {
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            Value::Object(
                keys.into_iter()
                    .map(|k| (k.clone(), sorted(&map[k])))
                    .collect(),
            )
        }
        Value::Array(items) => Value::Array(items.iter().map(sorted).collect()),
        other => other.clone(),
    }
}
