//! What a dialect's transform returns ([`Transformed`], with its [`Loss`]es), and the pieces
//! every dialect starts from or falls back to.

use serde::Serialize;
use serde_json::{Map, Value};

/// A change that alters what a schema accepts, or why a strict dialect could not be strict.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Loss {
    /// JSON pointer to the node in the *canonical* schema (`""` is the root; a node inside a
    /// definition is named once, under `/$defs/…`, however often it is used).
    pub pointer: String,
    /// What changed and what it means for the values accepted.
    pub reason: String,
}

/// A schema in one dialect.
#[derive(Debug, Clone, PartialEq)]
pub struct Transformed {
    /// The schema to send.
    pub schema: Value,
    /// Whether the provider may enforce it (`strict: true`); `false` for non-strict dialects
    /// and for a strict dialect's fallback.
    pub strict: bool,
    /// Every change of meaning, in the order found.
    pub losses: Vec<Loss>,
    /// Top-level arguments the dialect made nullable although the canonical schema does not
    /// accept `null` for them (OpenAI strict makes every property required): a `null` sent
    /// for one of them means "not given", and [`crate::provider`] removes it before decoding.
    pub absent_when_null: Vec<String>,
    /// Top-level arguments declared under another name, as (declared, ours): Gemini's
    /// parameter names are `^[A-Za-z_][A-Za-z0-9_]{0,63}$`, and [`crate::provider`] maps a
    /// call's arguments back before decoding.
    pub renamed_arguments: Vec<(String, String)>,
}

/// A canonical root with `type: "object"` (a tool without a usable schema takes any object).
pub(super) fn object_root(canonical: &Value) -> Map<String, Value> {
    let mut map = canonical.as_object().cloned().unwrap_or_default();
    map.remove("$schema");
    map.entry("type").or_insert_with(|| "object".into());
    map
}

/// A strict dialect's fallback: the canonical schema, declared non-strict, with the reasons
/// strict mode was impossible as the losses (the provider no longer enforces the schema).
pub(super) fn non_strict(root: Value, blockers: Vec<Loss>) -> Transformed {
    let losses = blockers
        .into_iter()
        .map(|b| Loss {
            pointer: b.pointer,
            reason: format!("{}; the tool is declared non-strict", b.reason),
        })
        .collect();
    Transformed {
        schema: root,
        strict: false,
        losses,
        absent_when_null: Vec::new(),
        renamed_arguments: Vec::new(),
    }
}
