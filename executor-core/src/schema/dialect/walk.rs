//! The walk every rewriting dialect shares: `$ref` inlining with recursion detection,
//! nullability, `oneOf` → `anyOf`, object rules and the keyword filter. Each dialect file
//! states its [`Rules`]; this file applies them node by node.

use std::collections::BTreeSet;

use serde_json::{Map, Value};

use super::transformed::{Loss, Transformed};

/// What a dialect does with a type that refers to itself.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Recursion {
    /// Keep `$defs` for recursive types and `#/$defs/X` references to them.
    KeepRef,
    /// The dialect cannot express recursion strictly: fall back to non-strict.
    Block,
    /// Cut the recursion: the inner occurrence becomes an unconstrained node (a loss).
    Cut,
}

/// How a dialect spells "or null".
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Nulls {
    /// `"type": ["T", "null"]` where the node has one type, else `anyOf: [T, {"type":"null"}]`.
    TypeArray,
    /// Always `anyOf: [T, {"type": "null"}]`.
    AnyOf,
    /// OpenAPI's `"nullable": true`.
    Nullable,
}

/// One dialect's rules, read by [`Walker`].
#[allow(clippy::struct_excessive_bools)] // one flag per provider rule, each read in one place
pub(super) struct Rules {
    /// Keywords kept as they are (beyond the structural ones the walk handles itself).
    pub keep: &'static [&'static str],
    /// String formats kept; others move into the description.
    pub formats: &'static [&'static str],
    pub recursion: Recursion,
    pub nulls: Nulls,
    /// Strict dialects: every object closed (`additionalProperties: false`); open maps,
    /// untyped values and tuples cannot be expressed.
    pub strict: bool,
    /// OpenAI strict: every property required (optional ones made nullable).
    pub all_required: bool,
    /// `const` survives (else a one-value `enum` for strings).
    pub const_ok: bool,
    /// `enum` values must be strings (Gemini `parameters`).
    pub string_enums: bool,
    /// Upper-case type names (`STRING`), OpenAPI style.
    pub upper_types: bool,
    /// The largest `minItems` kept (Anthropic strict: 1).
    pub max_min_items: Option<u64>,
}

/// Keywords whose removal makes a schema accept more values.
const VALIDATION: &[&str] = &[
    "minLength",
    "maxLength",
    "pattern",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minItems",
    "maxItems",
    "uniqueItems",
    "contains",
    "minContains",
    "maxContains",
    "minProperties",
    "maxProperties",
    "patternProperties",
    "propertyNames",
    "unevaluatedProperties",
    "unevaluatedItems",
    "dependentRequired",
    "dependentSchemas",
    "not",
    "if",
    "then",
    "else",
    "const",
    "enum",
];

/// Keywords the walk rewrites itself; never passed through the keyword filter.
const STRUCTURAL: &[&str] = &[
    "type",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "prefixItems",
    "anyOf",
    "oneOf",
    "allOf",
    "$ref",
    "$defs",
    "definitions",
    "description",
    "$schema",
];

/// Numeric formats schemars writes beside the `minimum`/`maximum` that state the range.
const NUMERIC_FORMATS: &[&str] = &[
    "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "uint", "int",
    "float", "double",
];

/// A JSON pointer token: `~` → `~0`, `/` → `~1`.
pub(crate) fn escape_pointer(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

fn child(ptr: &str, key: &str) -> String {
    format!("{ptr}/{}", escape_pointer(key))
}

/// The walk over one canonical schema.
pub(super) struct Walker<'a> {
    rules: &'a Rules,
    defs: Option<&'a Map<String, Value>>,
    stack: Vec<String>,
    /// Recursive definitions kept as `$defs` ([`Recursion::KeepRef`]).
    kept: BTreeSet<String>,
    losses: Vec<Loss>,
    /// Why the schema cannot be strict (empty when it can).
    blockers: Vec<Loss>,
    /// Whether the root is an arguments object (its optional properties are decoded by us).
    input: bool,
    /// Top-level properties made nullable: `null` means "not given".
    pub absent_when_null: Vec<String>,
}

impl<'a> Walker<'a> {
    pub fn new(rules: &'a Rules, canonical: &'a Value, input: bool) -> Self {
        let defs = canonical
            .get("$defs")
            .or_else(|| canonical.get("definitions"))
            .and_then(Value::as_object);
        Self {
            rules,
            defs,
            stack: Vec::new(),
            kept: BTreeSet::new(),
            losses: Vec::new(),
            blockers: Vec::new(),
            input,
            absent_when_null: Vec::new(),
        }
    }

    pub fn rules(&self) -> &'a Rules {
        self.rules
    }

    pub fn def(&self, name: &str) -> Option<&'a Value> {
        self.defs.and_then(|d| d.get(name))
    }

    pub fn is_input(&self) -> bool {
        self.input
    }

    pub fn loss(&mut self, pointer: &str, reason: impl Into<String>) {
        self.losses.push(Loss {
            pointer: pointer.to_owned(),
            reason: reason.into(),
        });
    }

    /// The schema cannot be strict; `reason` says why.
    pub fn block(&mut self, pointer: &str, reason: impl Into<String>) {
        self.blockers.push(Loss {
            pointer: pointer.to_owned(),
            reason: reason.into(),
        });
    }

    /// Walks the whole schema from `root` and adds the kept definitions.
    pub fn finish(mut self, root: &Value) -> (Transformed, Vec<Loss>) {
        let mut schema = self.node(root, "");
        if !self.kept.is_empty()
            && let (Value::Object(map), Some(defs)) = (&mut schema, self.defs)
        {
            let mut out = Map::new();
            let mut done = BTreeSet::new();
            while let Some(name) = self.kept.iter().find(|n| !done.contains(*n)).cloned() {
                done.insert(name.clone());
                if let Some(def) = defs.get(&name) {
                    self.stack.push(name.clone());
                    let walked = self.node(def, &format!("/$defs/{}", escape_pointer(&name)));
                    self.stack.pop();
                    out.insert(name, walked);
                }
            }
            map.insert("$defs".into(), Value::Object(out));
        }
        let transformed = Transformed {
            schema,
            strict: self.rules.strict && self.blockers.is_empty(),
            losses: self.losses,
            absent_when_null: self.absent_when_null,
            renamed_arguments: Vec::new(),
        };
        (transformed, self.blockers)
    }

    /// One node.
    pub fn node(&mut self, value: &Value, ptr: &str) -> Value {
        let map = match value {
            Value::Object(map) => map,
            Value::Bool(true) => return self.untyped(&Map::new(), ptr),
            Value::Bool(false) => {
                self.block(ptr, "a schema that accepts nothing");
                return Value::Bool(false);
            }
            other => return other.clone(),
        };
        if let Some(Value::String(reference)) = map.get("$ref") {
            return self.reference(reference, map, ptr);
        }
        if let Some((inner, branch)) = split_null(map) {
            // A collapsed `anyOf: [T, null]` is walked as `T`, under `T`'s own pointer.
            let at = branch.map_or_else(|| ptr.to_owned(), |i| format!("{ptr}/anyOf/{i}"));
            let walked = self.node(&Value::Object(inner), &at);
            return self.nullable(walked);
        }
        let mut out = map.clone();
        out.remove("$defs");
        out.remove("definitions");
        out.remove("$schema");
        let moved = self.one_of(&mut out, ptr);
        self.all_of(&mut out, ptr);
        self.children(&mut out, ptr, moved);
        if is_object(&out) {
            self.object(&mut out, map, ptr);
        }
        if is_untyped(&out) {
            return self.untyped(&out, ptr);
        }
        self.keywords(&mut out, ptr);
        if self.rules.upper_types
            && let Some(Value::String(t)) = out.get_mut("type")
        {
            *t = t.to_uppercase();
        }
        Value::Object(out)
    }

    fn reference(&mut self, reference: &str, map: &Map<String, Value>, ptr: &str) -> Value {
        let name = reference
            .strip_prefix("#/$defs/")
            .or_else(|| reference.strip_prefix("#/definitions/"))
            .map(|n| n.replace("~1", "/").replace("~0", "~"));
        let def = name
            .as_ref()
            .and_then(|n| self.defs.and_then(|d| d.get(n)).map(|d| (n.clone(), d)));
        let Some((name, def)) = def else {
            self.block(ptr, format!("`$ref` {reference} does not resolve"));
            return Value::Object(map.clone());
        };
        let mut siblings = map.clone();
        siblings.remove("$ref");
        if self.stack.contains(&name) {
            return self.recursive(&name, siblings, ptr);
        }
        let mut merged = def.as_object().cloned().unwrap_or_default();
        merged.extend(siblings);
        self.stack.push(name.clone());
        let walked = self.node(
            &Value::Object(merged),
            &format!("/$defs/{}", escape_pointer(&name)),
        );
        self.stack.pop();
        walked
    }

    fn recursive(&mut self, name: &str, mut siblings: Map<String, Value>, ptr: &str) -> Value {
        let reference = Value::String(format!("#/$defs/{}", escape_pointer(name)));
        match self.rules.recursion {
            Recursion::KeepRef => {
                self.kept.insert(name.to_owned());
                let mut one = Map::new();
                one.insert("$ref".into(), reference);
                if siblings.is_empty() {
                    return Value::Object(one);
                }
                // Siblings beside `$ref` are refused: wrap the reference in a one-branch anyOf.
                siblings.insert("anyOf".into(), Value::Array(vec![Value::Object(one)]));
                Value::Object(siblings)
            }
            Recursion::Block => {
                self.block(
                    ptr,
                    format!("recursive type `{name}`: refused in strict mode"),
                );
                siblings.insert("$ref".into(), reference);
                Value::Object(siblings)
            }
            Recursion::Cut => {
                self.loss(
                    ptr,
                    format!("recursive type `{name}` is not expanded here: any object is accepted"),
                );
                let mut cut = Map::new();
                cut.insert("type".into(), "object".into());
                let text = format!("Same shape as the enclosing `{name}`.");
                cut.insert("description".into(), text.into());
                self.node(&Value::Object(cut), ptr)
            }
        }
    }

    /// `inner` or null, in the dialect's spelling.
    pub fn nullable(&self, inner: Value) -> Value {
        let Value::Object(mut map) = inner else {
            return inner;
        };
        let null = || serde_json::json!({"type": "null"});
        match self.rules.nulls {
            Nulls::Nullable => {
                map.insert("nullable".into(), true.into());
            }
            Nulls::TypeArray if map.get("type").is_some_and(Value::is_string) => {
                let t = map.remove("type").unwrap_or_default();
                map.insert("type".into(), Value::Array(vec![t, "null".into()]));
                if let Some(Value::Array(values)) = map.get_mut("enum") {
                    values.push(Value::Null);
                }
            }
            Nulls::TypeArray | Nulls::AnyOf => {
                if let Some(Value::Array(branches)) = map.get_mut("anyOf") {
                    branches.push(null());
                } else {
                    let description = map.remove("description");
                    let mut wrapper = Map::new();
                    wrapper.insert(
                        "anyOf".into(),
                        Value::Array(vec![Value::Object(map), null()]),
                    );
                    if let Some(d) = description {
                        wrapper.insert("description".into(), d);
                    }
                    return Value::Object(wrapper);
                }
            }
        }
        Value::Object(map)
    }

    fn untyped(&mut self, node: &Map<String, Value>, ptr: &str) -> Value {
        if self.rules.strict {
            self.block(ptr, "an untyped value (any JSON) cannot be strict");
        }
        let mut out = node.clone();
        self.keywords(&mut out, ptr);
        Value::Object(out)
    }

    /// Walks the node's subschemas; `anyOf` branches from `moved` on came from `oneOf`.
    fn children(&mut self, out: &mut Map<String, Value>, ptr: &str, moved: Option<usize>) {
        if let Some(Value::Object(props)) = out.get_mut("properties") {
            let base = child(ptr, "properties");
            for (name, schema) in props.iter_mut() {
                *schema = self.node(schema, &child(&base, name));
            }
        }
        for key in ["anyOf", "oneOf", "allOf"] {
            if let Some(Value::Array(branches)) = out.get_mut(key) {
                for (i, branch) in branches.iter_mut().enumerate() {
                    let at = match moved {
                        Some(from) if key == "anyOf" && i >= from => {
                            child(&child(ptr, "oneOf"), &(i - from).to_string())
                        }
                        _ => child(&child(ptr, key), &i.to_string()),
                    };
                    *branch = self.node(branch, &at);
                }
            }
        }
        self.array(out, ptr);
        if let Some(extra @ Value::Object(_)) = out.get_mut("additionalProperties") {
            *extra = self.node(extra, &child(ptr, "additionalProperties"));
        }
    }
}

/// The node without null when `node` also accepts null (`"type": [T, "null"]`, or an `anyOf`
/// with a `{"type": "null"}` branch), and, when that `anyOf` had one other branch and the node
/// became it, that branch's index.
pub(super) fn split_null(node: &Map<String, Value>) -> Option<(Map<String, Value>, Option<usize>)> {
    if let Some(Value::Array(types)) = node.get("type") {
        let rest: Vec<&Value> = types.iter().filter(|t| *t != "null").collect();
        if rest.len() == types.len() {
            return None;
        }
        let mut inner = node.clone();
        let t = match rest.as_slice() {
            [one] => (*one).clone(),
            many => Value::Array(many.iter().map(|t| (*t).clone()).collect()),
        };
        inner.insert("type".into(), t);
        if let Some(Value::Array(values)) = inner.get_mut("enum") {
            values.retain(|v| !v.is_null());
        }
        return Some((inner, None));
    }
    let branches = node.get("anyOf")?.as_array()?;
    let is_null = |b: &Value| {
        b.get("type") == Some(&Value::from("null")) && b.as_object().is_some_and(|m| m.len() == 1)
    };
    let rest: Vec<&Value> = branches.iter().filter(|b| !is_null(b)).collect();
    if rest.len() == branches.len() || rest.is_empty() {
        return None;
    }
    let mut inner = node.clone();
    let mut collapsed = None;
    if let [one] = rest.as_slice() {
        collapsed = branches.iter().position(|b| std::ptr::eq(b, *one));
        inner.remove("anyOf");
        // The branch's own keywords win over the wrapper's, except the description.
        let description = inner.remove("description");
        if let Some(branch) = one.as_object() {
            inner.extend(branch.clone());
        }
        if let Some(d) = description {
            inner.insert("description".into(), d);
        }
    } else {
        inner.insert(
            "anyOf".into(),
            Value::Array(rest.into_iter().cloned().collect()),
        );
    }
    Some((inner, collapsed))
}

/// Whether a canonical schema already accepts `null`.
pub(super) fn accepts_null(schema: &Value) -> bool {
    match schema {
        Value::Bool(b) => *b,
        Value::Object(map) => split_null(map).is_some() || is_untyped(map),
        _ => false,
    }
}

pub(super) fn is_object(node: &Map<String, Value>) -> bool {
    node.get("type") == Some(&Value::from("object")) || node.contains_key("properties")
}

/// A node that says nothing about its value's type: any JSON is accepted.
fn is_untyped(node: &Map<String, Value>) -> bool {
    [
        "type",
        "anyOf",
        "oneOf",
        "allOf",
        "enum",
        "const",
        "$ref",
        "properties",
        "items",
    ]
    .iter()
    .all(|k| !node.contains_key(*k))
}

/// Appends moved keywords to the description as `{key: value, …}`.
pub(super) fn describe(out: &mut Map<String, Value>, moved: &[(String, Value)]) {
    if moved.is_empty() {
        return;
    }
    let list: Vec<String> = moved
        .iter()
        .map(|(k, v)| match v {
            Value::String(s) => format!("{k}: {s}"),
            other => format!("{k}: {other}"),
        })
        .collect();
    let note = format!("{{{}}}", list.join(", "));
    let text = match out.get("description").and_then(Value::as_str) {
        Some(d) if !d.is_empty() => format!("{d}\n\n{note}"),
        _ => note,
    };
    out.insert("description".into(), text.into());
}

/// Whether removing `key` makes the node accept more values.
pub(super) fn is_validation(key: &str, value: &Value) -> bool {
    if key == "format" {
        return value
            .as_str()
            .is_some_and(|f| !NUMERIC_FORMATS.contains(&f));
    }
    if key == "minItems" || key == "minLength" || key == "minProperties" || key == "minContains" {
        return value.as_u64() != Some(0);
    }
    VALIDATION.contains(&key)
}

pub(super) fn is_structural(key: &str) -> bool {
    STRUCTURAL.contains(&key)
}

/// Gemini returns every number as a double (protobuf `Struct`), and A2A clients on the protobuf
/// binding do the same: `{"a": 2}` arrives as `{"a": 2.0}`, which an `i64` parameter would
/// refuse. A whole number within ±2^53 (where a double is exact) is turned back into an
/// integer; a parameter of a float type accepts it as before.
///
/// ```
/// use tool_executor::schema::dialect::integral_floats_to_integers;
/// use serde_json::json;
///
/// let mut args = json!({"a": 2.0, "b": [1.5, 3.0], "c": {"d": -4.0}});
/// integral_floats_to_integers(&mut args);
/// assert_eq!(args, json!({"a": 2, "b": [1.5, 3], "c": {"d": -4}}));
/// assert!(args["a"].is_i64());
/// ```
pub fn integral_floats_to_integers(value: &mut Value) {
    const EXACT: f64 = 9_007_199_254_740_992.0; // 2^53
    match value {
        Value::Number(n) if n.is_f64() => {
            if let Some(f) = n.as_f64().filter(|f| f.fract() == 0.0 && f.abs() <= EXACT) {
                // In range and whole, so the cast is exact.
                #[allow(clippy::cast_possible_truncation)]
                let int = f as i64;
                *value = Value::from(int);
            }
        }
        Value::Array(items) => items.iter_mut().for_each(integral_floats_to_integers),
        Value::Object(map) => map.values_mut().for_each(integral_floats_to_integers),
        _ => {}
    }
}
