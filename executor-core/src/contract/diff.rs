//! A lock against the current set: every difference as a [`Change`] with its [`ChangeClass`]
//! and JSON pointer.
//!
//! | class | what |
//! |---|---|
//! | breaking | a scope added; input: a new required property, an optional one made required, a narrower type or range, a removed value or property, a new constraint; output: a removed or now-optional field, a wider type, an added value; a tool removed or renamed; a hint reversed to the riskier side; a failure code removed; a shorter time limit |
//! | additive | the reverse of each: a scope dropped, a new tool, an optional property, a wider input, a narrower output, a new failure code, a hint to the safer side |
//! | routing | text a model chooses tools by: a tool's description or title, a property's description, default or examples |
//! | cosmetic | no change of meaning: a schema `title`, a hint stated with its default value, a `$defs` type renamed |
//! | dialect-only | one provider's rendering changed in a way the canonical schema did not (OpenAI strict turns "now optional" into "now nullable, still required"; a tool stops being strict) |

use std::collections::BTreeSet;

use serde_json::Value;

use super::change::{
    Canonical, Change, ChangeClass, ContractDiff, Direction, canonical, change, class_of, obj,
};
use super::lock::Contract;
use super::schema::{self, escape, short};

impl Contract {
    /// Every change from `self` (the lock) to `current` (the set as it is now).
    ///
    /// ```
    /// use tool_executor::prelude::*;
    /// use tool_executor::contract::ChangeClass;
    ///
    /// mod v1 {
    ///     use tool_executor::prelude::*;
    ///     /// Searches the notes.
    ///     #[tool]
    ///     pub fn search(query: String) -> Vec<String> { vec![query] }
    /// }
    /// mod v2 {
    ///     use tool_executor::prelude::*;
    ///     /// Searches the notes.
    ///     #[tool]
    ///     pub fn search(query: String, limit: u32) -> Vec<String> { vec![query; limit as usize] }
    /// }
    ///
    /// let diff = toolset![v1::search].contract().diff(&toolset![v2::search].contract());
    /// assert!(diff.is_breaking());
    /// assert_eq!(diff.changes()[0].pointer, "/inputSchema/properties/limit");
    /// assert_eq!(diff.changes()[0].what, "required property `limit` added");
    /// ```
    #[must_use]
    pub fn diff(&self, current: &Contract) -> ContractDiff {
        let (old, new) = (self.tools(), current.tools());
        let mut changes = Vec::new();
        let removed: Vec<&String> = old.keys().filter(|k| !new.contains_key(*k)).collect();
        let mut added: Vec<&String> = new.keys().filter(|k| !old.contains_key(*k)).collect();
        for name in old.keys() {
            let Some(now) = new.get(name) else { continue };
            changes.extend(tool(name, &old[name], now));
        }
        for name in removed {
            // A tool under a new name with the same schemas and description was renamed.
            let same = |n: &&String| strip_dialects(&new[*n]) == strip_dialects(&old[name]);
            let what = match added.iter().position(same) {
                Some(at) => format!("renamed to `{}`", added.remove(at)),
                None => "tool removed".to_owned(),
            };
            changes.push(change(ChangeClass::Breaking, name, "", what));
        }
        for name in added {
            changes.push(change(ChangeClass::Additive, name, "", "tool added".into()));
        }
        ContractDiff::new(changes)
    }
}

fn strip_dialects(entry: &Value) -> Value {
    let mut entry = entry.clone();
    if let Some(map) = entry.as_object_mut() {
        map.remove("dialects");
    }
    entry
}

/// The keys of a tool's entry the rules below read; any other key that differs (a field a
/// later version adds) is reported for review.
const ENTRY_KEYS: [&str; 9] = [
    "description",
    "scopes",
    "inputSchema",
    "outputSchema",
    "annotations",
    "failureCodes",
    "timeoutMs",
    "taskSupport",
    "dialects",
];

/// The changes of one tool present in both.
fn tool(name: &str, old: &Value, new: &Value) -> Vec<Change> {
    if old == new {
        return Vec::new();
    }
    let mut out = Vec::new();
    let field = |v: &Value, k: &str| v.get(k).cloned().unwrap_or(Value::Null);
    if old.get("description") != new.get("description") {
        let what = format!("description now {}", short(&field(new, "description")));
        out.push(change(ChangeClass::Routing, name, "/description", what));
    }
    annotations(name, old, new, &mut out);
    let input = schemas(name, old, new, "inputSchema", Direction::Input, &mut out);
    let output = schemas(name, old, new, "outputSchema", Direction::Output, &mut out);
    failure_codes(name, old, new, &mut out);
    scopes(name, old, new, &mut out);
    timeout(name, old, new, &mut out);
    task_support(name, old, new, &mut out);
    super::dialect::compare(name, old, new, [&input, &output], &mut out);
    let keys: BTreeSet<&String> = obj(old).keys().chain(obj(new).keys()).collect();
    for key in keys {
        if !ENTRY_KEYS.contains(&key.as_str()) && old.get(key) != new.get(key) {
            let what = format!(
                "`{key}` now {} (no rule reads it: review it)",
                short(&field(new, key))
            );
            out.push(change(
                ChangeClass::Breaking,
                name,
                &format!("/{}", escape(key)),
                what,
            ));
        }
    }
    if out.is_empty() {
        let what = "the entry's text changed with no change of meaning".into();
        out.push(change(ChangeClass::Cosmetic, name, "", what));
    }
    out
}

fn schemas(
    name: &str,
    old: &Value,
    new: &Value,
    key: &str,
    direction: Direction,
    out: &mut Vec<Change>,
) -> Canonical {
    let base = format!("/{key}");
    match (old.get(key), new.get(key)) {
        (None, None) => Canonical::new(),
        (None, Some(_)) => {
            let what = "declares its output schema now".into();
            out.push(change(ChangeClass::Additive, name, &base, what));
            Canonical::new()
        }
        (Some(_), None) => {
            let what = "no longer declares its output schema".into();
            out.push(change(ChangeClass::Breaking, name, &base, what));
            Canonical::new()
        }
        (Some(o), Some(n)) => {
            let findings = schema::diff(o, n);
            for f in &findings {
                let pointer = format!("{base}{}", f.pointer);
                out.push(change(
                    class_of(f.rule, direction),
                    name,
                    &pointer,
                    f.what.clone(),
                ));
            }
            canonical(&findings)
        }
    }
}

/// Each hint, its default when absent (MCP's), and which value is the safer one.
const HINTS: [(&str, bool, bool); 4] = [
    ("readOnlyHint", false, true),
    ("destructiveHint", true, false),
    ("idempotentHint", false, true),
    ("openWorldHint", true, false),
];

fn annotations(name: &str, old: &Value, new: &Value, out: &mut Vec<Change>) {
    let (oa, na) = (
        old.get("annotations").unwrap_or(&Value::Null),
        new.get("annotations").unwrap_or(&Value::Null),
    );
    if oa == na {
        return;
    }
    if oa.get("title") != na.get("title") {
        let what = match na.get("title") {
            Some(title) => format!("title now {}", short(title)),
            None => "title removed".into(),
        };
        out.push(change(
            ChangeClass::Routing,
            name,
            "/annotations/title",
            what,
        ));
    }
    for (hint, default, safe) in HINTS {
        let (o, n) = (oa.get(hint), na.get(hint));
        if o == n {
            continue;
        }
        let pointer = format!("/annotations/{hint}");
        let effective = |v: Option<&Value>| v.and_then(Value::as_bool).unwrap_or(default);
        let (before, after) = (effective(o), effective(n));
        let (class, what) = if before == after {
            let what = format!("`{hint}` stated or dropped with its default value {after}");
            (ChangeClass::Cosmetic, what)
        } else if after == safe {
            (
                ChangeClass::Additive,
                format!("`{hint}` {before} → {after}"),
            )
        } else {
            (
                ChangeClass::Breaking,
                format!("`{hint}` reversed: {before} → {after}"),
            )
        };
        out.push(change(class, name, &pointer, what));
    }
    let known = [
        "title",
        "readOnlyHint",
        "destructiveHint",
        "idempotentHint",
        "openWorldHint",
    ];
    let keys: BTreeSet<&String> = obj(oa).keys().chain(obj(na).keys()).collect();
    for key in keys {
        if !known.contains(&key.as_str()) && oa.get(key) != na.get(key) {
            let pointer = format!("/annotations/{}", escape(key));
            let what = format!("`{key}` changed (no rule reads it: review it)");
            out.push(change(ChangeClass::Breaking, name, &pointer, what));
        }
    }
}

/// The strings of a list field of an entry.
fn strings(entry: &Value, key: &str) -> BTreeSet<String> {
    entry
        .get(key)
        .and_then(Value::as_array)
        .map(|c| {
            c.iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default()
}

/// A scope added hides the tool from, and refuses, every caller whose token lacks it.
fn scopes(name: &str, old: &Value, new: &Value, out: &mut Vec<Change>) {
    let (o, n) = (strings(old, "scopes"), strings(new, "scopes"));
    for scope in n.difference(&o) {
        let what = format!("scope `{scope}` required now");
        out.push(change(ChangeClass::Breaking, name, "/scopes", what));
    }
    for scope in o.difference(&n) {
        let what = format!("scope `{scope}` no longer required");
        out.push(change(ChangeClass::Additive, name, "/scopes", what));
    }
}

fn failure_codes(name: &str, old: &Value, new: &Value, out: &mut Vec<Change>) {
    let (o, n) = (strings(old, "failureCodes"), strings(new, "failureCodes"));
    for code in o.difference(&n) {
        let what = format!("failure code `{code}` removed");
        out.push(change(ChangeClass::Breaking, name, "/failureCodes", what));
    }
    for code in n.difference(&o) {
        let what = format!("failure code `{code}` added");
        out.push(change(ChangeClass::Additive, name, "/failureCodes", what));
    }
}

/// Becoming `required` breaks every client that does not declare the tasks extension (its calls
/// now fail with -32021); any other change only changes what a declaring client may get back,
/// which it handles either way.
fn task_support(name: &str, old: &Value, new: &Value, out: &mut Vec<Change>) {
    let support = |v: &Value| {
        v.get("taskSupport")
            .and_then(Value::as_str)
            .unwrap_or("forbidden")
            .to_owned()
    };
    let (o, n) = (support(old), support(new));
    if o == n {
        return;
    }
    let class = if n == "required" {
        ChangeClass::Breaking
    } else {
        ChangeClass::Additive
    };
    let what = format!("task support {o} → {n}");
    out.push(change(class, name, "/taskSupport", what));
}

fn timeout(name: &str, old: &Value, new: &Value, out: &mut Vec<Change>) {
    let ms = |v: &Value| v.get("timeoutMs").and_then(Value::as_u64);
    let (o, n) = (ms(old), ms(new));
    let class = match (o, n) {
        (a, b) if a == b => return,
        (None, Some(_)) => ChangeClass::Breaking,
        (Some(a), Some(b)) if b < a => ChangeClass::Breaking,
        _ => ChangeClass::Additive,
    };
    let show = |v: Option<u64>| v.map_or("none".to_owned(), |ms| format!("{ms} ms"));
    let what = format!("time limit {} → {}", show(o), show(n));
    out.push(change(class, name, "/timeoutMs", what));
}
