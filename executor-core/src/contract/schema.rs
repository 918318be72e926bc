//! One schema against another: what a caller (input) or a reader (output) of the new schema
//! meets that it did not meet before. The walk follows `$ref`s into `$defs`, so a type moved or
//! renamed between `$defs` is no change, and reports each finding at the JSON pointer of the
//! place it concerns (`/properties/limit`), the same in the canonical schema and in every
//! provider's rendering of it; `diff.rs` turns findings into classified changes.

use std::borrow::Cow;
use std::collections::{BTreeSet, HashSet};

use serde_json::{Map, Value};

/// What a finding does to the set of values the schema allows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(super) enum Rule {
    /// Fewer values allowed (a narrower type or range, a value or an alternative removed, a
    /// constraint added, a property now required).
    Narrows,
    /// More values allowed.
    Widens,
    /// Some values allowed that were not, and some refused that were: both ways at once.
    Reshapes,
    /// A property gone.
    PropertyRemoved,
    /// A property added (`required`: whether a caller must now send it).
    PropertyAdded { required: bool },
    /// Text a model reads: a description, a default, examples.
    Routing,
    /// Text nobody acts on: a title, a comment.
    Cosmetic,
}

/// What exactly changed: a finding in a provider's rendering with no twin (same detail, same
/// pointer) among the canonical schema's findings is that provider's own change.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(super) enum Detail {
    Type,
    Values,
    Bound(&'static str),
    Constraint(&'static str),
    Required,
    Property,
    Alternatives,
    Text(&'static str),
    Other,
}

/// One change found in a schema.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Finding {
    pub(super) rule: Rule,
    pub(super) detail: Detail,
    /// JSON pointer relative to the schema's root.
    pub(super) pointer: String,
    /// What changed, in JSON words.
    pub(super) what: String,
}

/// How deep the walk goes (a recursive type is followed this far at most).
const MAX_DEPTH: usize = 48;

/// Keywords compared as text.
const TEXTS: [(&str, Rule); 5] = [
    ("description", Rule::Routing),
    ("default", Rule::Routing),
    ("examples", Rule::Routing),
    ("title", Rule::Cosmetic),
    ("$comment", Rule::Cosmetic),
];

/// The keywords the walk reads itself; any other keyword that differs is a `Reshapes`
/// finding ("review it"), never silence.
const KNOWN: &[&str] = &[
    "type",
    "nullable",
    "enum",
    "const",
    "anyOf",
    "oneOf",
    "properties",
    "required",
    "items",
    "$ref",
    "$defs",
    "definitions",
    "$schema",
    "$id",
    "description",
    "title",
    "default",
    "examples",
    "$comment",
    "format",
    "pattern",
    "additionalProperties",
    "multipleOf",
    "minimum",
    "exclusiveMinimum",
    "maximum",
    "exclusiveMaximum",
    "minLength",
    "maxLength",
    "minItems",
    "maxItems",
    "minProperties",
    "maxProperties",
    "propertyOrdering",
];

/// Lower bounds: a larger value narrows.
const LOWER: &[&str] = &[
    "minimum",
    "exclusiveMinimum",
    "minLength",
    "minItems",
    "minProperties",
];
/// Upper bounds: a smaller value narrows.
const UPPER: &[&str] = &[
    "maximum",
    "exclusiveMaximum",
    "maxLength",
    "maxItems",
    "maxProperties",
];
/// Constraints whose presence narrows and whose absence widens.
const CONSTRAINTS: &[&str] = &["format", "pattern", "multipleOf"];

/// Every finding between `old` and `new`, two schemas (each with its own `$defs`).
pub(super) fn diff(old: &Value, new: &Value) -> Vec<Finding> {
    let mut walk = Walk {
        old_root: old,
        new_root: new,
        seen: HashSet::new(),
        found: Vec::new(),
    };
    walk.node(old, new, "", 0, true);
    walk.found
}

struct Walk<'a> {
    old_root: &'a Value,
    new_root: &'a Value,
    /// Pairs of `$ref`s already compared (a recursive type is walked once).
    seen: HashSet<(String, String)>,
    found: Vec<Finding>,
}

impl Walk<'_> {
    fn push(&mut self, rule: Rule, detail: Detail, pointer: &str, what: String) {
        self.found.push(Finding {
            rule,
            detail,
            pointer: pointer.to_owned(),
            what,
        });
    }

    /// Compares two nodes; `texts` is false for the inner alternative of an `Option`, whose
    /// outer texts were compared already.
    fn node(&mut self, old: &Value, new: &Value, at: &str, depth: usize, texts: bool) {
        if depth > MAX_DEPTH {
            return;
        }
        if let (Some(o), Some(n)) = (ref_of(old), ref_of(new))
            && !self.seen.insert((o.to_owned(), n.to_owned()))
        {
            return;
        }
        let old = resolve(self.old_root, old);
        let new = resolve(self.new_root, new);
        if old == new {
            return;
        }
        let (Some(o), Some(n)) = (old.as_object(), new.as_object()) else {
            // `true`/`false` schemas, or a malformed one.
            self.push(
                Rule::Reshapes,
                Detail::Other,
                at,
                "the schema changed".into(),
            );
            return;
        };
        if texts {
            self.text(o, n, at);
        }
        self.types(o, n, at);
        let values = self.values(o, n, at);
        self.bounds(o, n, at);
        self.constraints(o, n, at);
        self.properties(o, n, at, depth);
        match (o.get("items"), n.get("items")) {
            (Some(oi), Some(ni)) => self.node(oi, ni, &format!("{at}/items"), depth + 1, true),
            (None, None) => {}
            _ => {
                let what = "`items` changed".into();
                self.push(Rule::Reshapes, Detail::Other, at, what);
            }
        }
        if !values {
            self.alternatives(o, n, at, depth);
        }
        self.unknown(o, n, at);
    }

    fn text(&mut self, o: &Map<String, Value>, n: &Map<String, Value>, at: &str) {
        for (key, rule) in TEXTS {
            let (old, new) = (o.get(key), n.get(key));
            if old != new {
                let what = match (old, new) {
                    (None, Some(v)) => format!("`{key}` added: {}", short(v)),
                    (Some(_), None) => format!("`{key}` removed"),
                    (_, Some(v)) => format!("`{key}` now {}", short(v)),
                    (None, None) => continue,
                };
                self.push(rule, Detail::Text(key), at, what);
            }
        }
    }

    fn types(&mut self, o: &Map<String, Value>, n: &Map<String, Value>, at: &str) {
        let old = type_set(self.old_root, o, 0);
        let new = type_set(self.new_root, n, 0);
        if old == new {
            return;
        }
        let show = |t: &Option<BTreeSet<String>>| match t {
            None => "any".to_owned(),
            Some(set) => set.iter().cloned().collect::<Vec<_>>().join(" or "),
        };
        let what = format!("type {} → {}", show(&old), show(&new));
        let rule = match (&old, &new) {
            (None, Some(_)) => Rule::Narrows,
            (Some(_), None) => Rule::Widens,
            (Some(old), Some(new)) => {
                let lost = old.iter().any(|t| !covers(new, t));
                let gained = new.iter().any(|t| !covers(old, t));
                match (lost, gained) {
                    (true, false) => Rule::Narrows,
                    (false, true) => Rule::Widens,
                    _ => Rule::Reshapes,
                }
            }
            (None, None) => return,
        };
        self.push(rule, Detail::Type, at, what);
    }

    /// Enum and const values; returns whether both nodes are lists of values (so their
    /// alternatives are not walked one by one).
    fn values(&mut self, o: &Map<String, Value>, n: &Map<String, Value>, at: &str) -> bool {
        let old = values_of(self.old_root, o, 0);
        let new = values_of(self.new_root, n, 0);
        let both = old.is_some() && new.is_some();
        match (old, new) {
            (None, None) => {}
            (None, Some(new)) => {
                let what = format!("only the values {} now", list(&new));
                self.push(Rule::Narrows, Detail::Values, at, what);
            }
            (Some(_), None) => {
                let what = "any value of its type now (the list of values is gone)".into();
                self.push(Rule::Widens, Detail::Values, at, what);
            }
            (Some(old), Some(new)) => {
                let removed: BTreeSet<String> = old.difference(&new).cloned().collect();
                let added: BTreeSet<String> = new.difference(&old).cloned().collect();
                if !removed.is_empty() {
                    let what = format!("value {} removed", list(&removed));
                    self.push(Rule::Narrows, Detail::Values, at, what);
                }
                if !added.is_empty() {
                    let what = format!("value {} added", list(&added));
                    self.push(Rule::Widens, Detail::Values, at, what);
                }
                let docs =
                    |m: &Map<String, Value>| (m.get("anyOf").cloned(), m.get("oneOf").cloned());
                if removed.is_empty() && added.is_empty() && docs(o) != docs(n) {
                    let what = "the values' descriptions changed".into();
                    self.push(Rule::Routing, Detail::Text("values"), at, what);
                }
            }
        }
        both
    }

    fn bounds(&mut self, o: &Map<String, Value>, n: &Map<String, Value>, at: &str) {
        for (keys, lower) in [(LOWER, true), (UPPER, false)] {
            for key in keys {
                let (old, new) = (o.get(*key), n.get(*key));
                if old == new {
                    continue;
                }
                let (of, nf) = (old.and_then(Value::as_f64), new.and_then(Value::as_f64));
                // A bound added narrows, one removed widens; a lower bound raised or an
                // upper bound lowered narrows.
                let narrows = match (of, nf) {
                    (None, Some(_)) => Some(true),
                    (Some(_), None) => Some(false),
                    (Some(a), Some(b)) => Some((b > a) == lower),
                    (None, None) => None,
                };
                let rule = match narrows {
                    Some(true) => Rule::Narrows,
                    Some(false) => Rule::Widens,
                    None => Rule::Reshapes,
                };
                let show = |v: Option<&Value>| v.map_or("none".into(), short);
                let what = format!("`{key}` {} → {}", show(old), show(new));
                self.push(rule, Detail::Bound(key), at, what);
            }
        }
    }

    fn constraints(&mut self, o: &Map<String, Value>, n: &Map<String, Value>, at: &str) {
        let show = |v: Option<&Value>| v.map_or("none".into(), short);
        for key in CONSTRAINTS {
            let (old, new) = (o.get(*key), n.get(*key));
            if old == new {
                continue;
            }
            let rule = match (old, new) {
                (None, Some(_)) => Rule::Narrows,
                (Some(_), None) => Rule::Widens,
                _ => Rule::Reshapes,
            };
            let what = format!("`{key}` {} → {}", show(old), show(new));
            self.push(rule, Detail::Constraint(key), at, what);
        }
        // Absent or `true` allows any extra property, `false` none, a schema those it allows.
        let (old, new) = (o.get("additionalProperties"), n.get("additionalProperties"));
        let open = |v: Option<&Value>| matches!(v, None | Some(Value::Bool(true)));
        if old != new && !(open(old) && open(new)) {
            let rule = match (open(old), open(new)) {
                (true, false) => Rule::Narrows,
                (false, true) => Rule::Widens,
                _ => Rule::Reshapes,
            };
            let what = format!("`additionalProperties` {} → {}", show(old), show(new));
            let detail = Detail::Constraint("additionalProperties");
            self.push(rule, detail, at, what);
        }
    }

    fn properties(
        &mut self,
        o: &Map<String, Value>,
        n: &Map<String, Value>,
        at: &str,
        depth: usize,
    ) {
        let empty = Map::new();
        let op = o
            .get("properties")
            .and_then(Value::as_object)
            .unwrap_or(&empty);
        let np = n
            .get("properties")
            .and_then(Value::as_object)
            .unwrap_or(&empty);
        let (or, nr) = (required(o), required(n));
        for (name, old) in op {
            let here = format!("{at}/properties/{}", escape(name));
            let Some(new) = np.get(name) else {
                let what = format!("property `{name}` removed");
                self.push(Rule::PropertyRemoved, Detail::Property, &here, what);
                continue;
            };
            match (or.contains(name.as_str()), nr.contains(name.as_str())) {
                (false, true) => {
                    let what = format!("`{name}` now required");
                    self.push(Rule::Narrows, Detail::Required, &here, what);
                }
                (true, false) => {
                    let what = format!("`{name}` now optional");
                    self.push(Rule::Widens, Detail::Required, &here, what);
                }
                _ => {}
            }
            self.node(old, new, &here, depth + 1, true);
        }
        for name in np.keys().filter(|k| !op.contains_key(*k)) {
            let here = format!("{at}/properties/{}", escape(name));
            let required = nr.contains(name.as_str());
            let kind = if required { "required" } else { "optional" };
            let what = format!("{kind} property `{name}` added");
            self.push(
                Rule::PropertyAdded { required },
                Detail::Property,
                &here,
                what,
            );
        }
    }

    /// `anyOf`/`oneOf` that are not lists of values: with one non-null alternative on each
    /// side (a `T` against an `Option<T>`, or two `Option`s) that alternative is walked;
    /// otherwise the alternatives are compared as sets.
    fn alternatives(
        &mut self,
        o: &Map<String, Value>,
        n: &Map<String, Value>,
        at: &str,
        depth: usize,
    ) {
        let (oa, na) = (alternatives(o), alternatives(n));
        if oa.is_none() && na.is_none() {
            return;
        }
        let ol = non_null(self.old_root, oa, o);
        let nl = non_null(self.new_root, na, n);
        if let ([old], [new]) = (ol.as_slice(), nl.as_slice()) {
            if alternatives_of(old).is_none() && alternatives_of(new).is_none() {
                self.node(old, new, at, depth + 1, false);
            }
            return;
        }
        if nl.iter().any(|v| !ol.contains(v)) {
            let what = "an alternative added".into();
            self.push(Rule::Widens, Detail::Alternatives, at, what);
        }
        if ol.iter().any(|v| !nl.contains(v)) {
            let what = "an alternative removed or changed".into();
            self.push(Rule::Narrows, Detail::Alternatives, at, what);
        }
    }

    fn unknown(&mut self, o: &Map<String, Value>, n: &Map<String, Value>, at: &str) {
        let keys: BTreeSet<&String> = o.keys().chain(n.keys()).collect();
        for key in keys {
            if !KNOWN.contains(&key.as_str()) && o.get(key) != n.get(key) {
                let what = format!("`{key}` changed (no rule reads it: review it)");
                self.push(Rule::Reshapes, Detail::Other, at, what);
            }
        }
    }
}

/// The non-null alternatives of a node (resolved), or the node itself, without the text
/// keywords [`Walk::text`] already compared, when it has none.
fn non_null(root: &Value, alts: Option<&[Value]>, whole: &Map<String, Value>) -> Vec<Value> {
    match alts {
        None => {
            let mut node = whole.clone();
            for (key, _) in TEXTS {
                node.remove(key);
            }
            vec![Value::Object(node)]
        }
        Some(alts) => alts
            .iter()
            .map(|a| resolve(root, a).into_owned())
            .filter(|a| !is_null_type(a))
            .collect(),
    }
}

fn ref_of(node: &Value) -> Option<&str> {
    node.get("$ref").and_then(Value::as_str)
}

/// `node` with its `$ref` (a local `#/$defs/…` or `#/definitions/…`) followed, the keywords
/// beside the `$ref` (a field's own description) kept over the target's; a `$ref` that
/// cannot be followed leaves the node as it is.
pub(super) fn resolve<'v>(root: &'v Value, node: &'v Value) -> Cow<'v, Value> {
    let mut at = node;
    let mut beside: Vec<&Map<String, Value>> = Vec::new();
    for _ in 0..16 {
        let Some(target) = ref_of(at) else { break };
        let Some(next) = target.strip_prefix('#').and_then(|p| root.pointer(p)) else {
            break;
        };
        if let Some(map) = at.as_object().filter(|m| m.len() > 1) {
            beside.push(map);
        }
        at = next;
    }
    let (false, Some(target)) = (beside.is_empty(), at.as_object()) else {
        return Cow::Borrowed(at);
    };
    let mut merged = target.clone();
    // The outermost node's keywords win: apply the innermost first.
    for map in beside.iter().rev() {
        for (key, value) in *map {
            if key != "$ref" {
                merged.insert(key.clone(), value.clone());
            }
        }
    }
    Cow::Owned(Value::Object(merged))
}

fn alternatives(node: &Map<String, Value>) -> Option<&[Value]> {
    node.get("anyOf")
        .or_else(|| node.get("oneOf"))
        .and_then(Value::as_array)
        .map(Vec::as_slice)
}

fn alternatives_of(node: &Value) -> Option<&[Value]> {
    node.as_object().and_then(alternatives)
}

fn is_null_type(node: &Value) -> bool {
    node.get("type").and_then(Value::as_str) == Some("null") && node.get("enum").is_none()
}

/// The JSON types a node allows: its `type` (OpenAPI's upper case read as JSON's),
/// `nullable`, its alternatives' types, or its values' types; `None` for any type.
fn type_set(root: &Value, node: &Map<String, Value>, depth: usize) -> Option<BTreeSet<String>> {
    if depth > MAX_DEPTH {
        return None;
    }
    let mut set = BTreeSet::new();
    let mut typed = true;
    match node.get("type") {
        Some(Value::String(t)) => {
            set.insert(t.to_ascii_lowercase());
        }
        Some(Value::Array(ts)) => {
            set.extend(
                ts.iter()
                    .filter_map(Value::as_str)
                    .map(str::to_ascii_lowercase),
            );
        }
        _ => typed = false,
    }
    if node.get("nullable") == Some(&Value::Bool(true)) {
        set.insert("null".into());
    }
    if typed {
        return Some(set);
    }
    if let Some(alts) = alternatives(node) {
        for alt in alts {
            let alt = resolve(root, alt);
            set.extend(type_set(root, alt.as_object()?, depth + 1)?);
        }
        return Some(set);
    }
    let values = values_of(root, node, depth)?;
    Some(values.iter().map(|v| json_type(v)).collect())
}

/// The values a node allows when it lists them (`enum`, `const`, or alternatives that are
/// each a value or `null`), as JSON text.
fn values_of(root: &Value, node: &Map<String, Value>, depth: usize) -> Option<BTreeSet<String>> {
    if let Some(Value::Array(values)) = node.get("enum") {
        return Some(values.iter().map(Value::to_string).collect());
    }
    if let Some(value) = node.get("const") {
        return Some(BTreeSet::from([value.to_string()]));
    }
    if depth > MAX_DEPTH {
        return None;
    }
    let alts = alternatives(node)?;
    let mut set = BTreeSet::new();
    let mut any = false;
    for alt in alts {
        let alt = resolve(root, alt);
        if is_null_type(&alt) {
            set.insert("null".into());
            continue;
        }
        set.extend(values_of(root, alt.as_object()?, depth + 1)?);
        any = true;
    }
    any.then_some(set)
}

fn required(node: &Map<String, Value>) -> HashSet<&str> {
    node.get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default()
}

/// Whether a type set allows every value of type `t` (`number` covers `integer`).
fn covers(set: &BTreeSet<String>, t: &str) -> bool {
    set.contains(t) || (t == "integer" && set.contains("number"))
}

fn json_type(value: &str) -> String {
    match serde_json::from_str::<Value>(value) {
        Ok(Value::Null) => "null",
        Ok(Value::Bool(_)) => "boolean",
        Ok(Value::Number(n)) if n.is_f64() => "number",
        Ok(Value::Number(_)) => "integer",
        Ok(Value::String(_)) => "string",
        Ok(Value::Array(_)) => "array",
        _ => "object",
    }
    .to_owned()
}

fn list(values: &BTreeSet<String>) -> String {
    values.iter().cloned().collect::<Vec<_>>().join(", ")
}

/// A value in a message: JSON text cut at 80 characters.
pub(super) fn short(value: &Value) -> String {
    let text = value.to_string();
    match text.char_indices().nth(80) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text,
    }
}

/// A key as a JSON pointer segment (RFC 6901).
pub(super) fn escape(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}
