//! The node rules of [`Walker`]: unions, `allOf`, arrays, objects and the keyword filter.

use serde_json::{Map, Value};

use super::walk::{Walker, accepts_null, describe, is_object, is_structural, is_validation};

impl Walker<'_> {
    /// `oneOf` becomes `anyOf`; a union of string constants (a documented unit enum) becomes
    /// one `enum` whose description lists the variants' descriptions.
    /// `oneOf` read as `anyOf` (appended to any `anyOf` there is). Returns how many `anyOf`
    /// branches were there before, so the walk names the moved branches' canonical nodes
    /// (`/oneOf/i`) in its losses.
    pub(super) fn one_of(&mut self, out: &mut Map<String, Value>, ptr: &str) -> Option<usize> {
        let Some(Value::Array(branches)) = out.remove("oneOf") else {
            return None;
        };
        if let Some((values, notes)) = string_constants(&branches) {
            out.insert("type".into(), "string".into());
            out.insert("enum".into(), Value::Array(values));
            if !notes.is_empty() {
                let mut text = out
                    .get("description")
                    .and_then(Value::as_str)
                    .map(|d| format!("{d}\n\n"))
                    .unwrap_or_default();
                text.push_str(&notes.join("\n"));
                out.insert("description".into(), text.into());
            }
            return None;
        }
        let resolved: Vec<Value> = branches.iter().map(|b| self.resolve(b)).collect();
        if !disjoint(&resolved) {
            self.loss(
                ptr,
                "`oneOf` is read as `anyOf`: a value matching several branches is accepted",
            );
        }
        if let Some(Value::Array(any)) = out.get_mut("anyOf") {
            let before = any.len();
            any.extend(branches);
            Some(before)
        } else {
            out.insert("anyOf".into(), Value::Array(branches));
            Some(0)
        }
    }

    /// `allOf` of object schemas is merged into one object; anything else is a loss.
    pub(super) fn all_of(&mut self, out: &mut Map<String, Value>, ptr: &str) {
        let Some(Value::Array(branches)) = out.remove("allOf") else {
            return;
        };
        for branch in &branches {
            let resolved = self.resolve(branch);
            let Some(map) = resolved.as_object() else {
                continue;
            };
            if !is_object(map) && branches.len() > 1 {
                self.loss(
                    ptr,
                    "`allOf` of non-object branches: only the first is kept",
                );
                merge_into(out, map);
                return;
            }
            merge_into(out, map);
        }
    }

    /// A reference resolved one level (for inspecting branches before they are walked).
    fn resolve(&self, branch: &Value) -> Value {
        let reference = branch.get("$ref").and_then(Value::as_str);
        let name = reference.and_then(|r| r.strip_prefix("#/$defs/"));
        match name.and_then(|n| self.def(n)) {
            Some(def) => def.clone(),
            None => branch.clone(),
        }
    }

    /// Tuples, untyped items.
    pub(super) fn array(&mut self, out: &mut Map<String, Value>, ptr: &str) {
        if let Some(Value::Array(prefix)) = out.remove("prefixItems") {
            let base = format!("{ptr}/prefixItems");
            let items: Vec<Value> = prefix
                .iter()
                .enumerate()
                .map(|(i, p)| self.node(p, &format!("{base}/{i}")))
                .collect();
            if self.rules().strict {
                self.block(ptr, "a tuple (`prefixItems`) cannot be strict");
            } else {
                self.loss(
                    ptr,
                    "tuple: each position accepts any of the tuple's item types",
                );
            }
            out.insert("items".into(), serde_json::json!({ "anyOf": items }));
            return;
        }
        let is_array = out.get("type") == Some(&Value::from("array"));
        match out.get_mut("items") {
            Some(items @ Value::Object(_)) => {
                *items = self.node(items, &format!("{ptr}/items"));
            }
            Some(Value::Bool(true)) | None if is_array && self.rules().strict => {
                self.block(ptr, "an array of untyped items cannot be strict");
            }
            _ => {}
        }
    }

    /// Closed objects and required properties for strict dialects.
    pub(super) fn object(
        &mut self,
        out: &mut Map<String, Value>,
        canonical: &Map<String, Value>,
        ptr: &str,
    ) {
        if !self.rules().strict {
            return;
        }
        if let Some(Value::Object(_) | Value::Bool(true)) = out.get("additionalProperties") {
            self.block(ptr, "an open map (`additionalProperties`) cannot be strict");
        }
        out.insert("type".into(), "object".into());
        out.insert("additionalProperties".into(), false.into());
        let props = out
            .entry("properties")
            .or_insert_with(|| Value::Object(Map::new()));
        if !self.rules().all_required {
            return;
        }
        let Value::Object(props) = props else {
            return;
        };
        let required: Vec<&str> = canonical
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let mut made = Vec::new();
        let mut names = Vec::with_capacity(props.len());
        for (name, schema) in props.iter_mut() {
            names.push(Value::String(name.clone()));
            let original = canonical.get("properties").and_then(|p| p.get(name));
            if required.contains(&name.as_str()) || original.is_none_or(accepts_null) {
                continue;
            }
            *schema = self.nullable(std::mem::take(schema));
            made.push(name.clone());
        }
        out.insert("required".into(), Value::Array(names));
        if ptr.is_empty() && self.is_input() {
            self.absent_when_null.extend(made);
        } else {
            for name in made {
                let reason = format!(
                    "optional `{name}` is required and nullable in strict mode: a `null` \
                     sent for it is refused unless its type accepts null"
                );
                self.loss(ptr, reason);
            }
        }
    }

    /// The keyword filter: keep what the dialect accepts, move the rest into the description.
    pub(super) fn keywords(&mut self, out: &mut Map<String, Value>, ptr: &str) {
        let keys: Vec<String> = out.keys().filter(|k| !is_structural(k)).cloned().collect();
        let mut moved: Vec<(String, Value)> = Vec::new();
        for key in keys {
            let Some(value) = out.remove(&key) else {
                continue;
            };
            match self.keyword(out, &key, value) {
                Ok(Some((k, v))) => {
                    out.insert(k, v);
                }
                Ok(None) => {}
                Err(value) => moved.push((key, value)),
            }
        }
        let lost: Vec<&str> = moved
            .iter()
            .filter(|(k, v)| is_validation(k, v))
            .map(|(k, _)| k.as_str())
            .collect();
        if !lost.is_empty() {
            let reason = format!(
                "not enforced, moved into the description: {}",
                lost.join(", ")
            );
            self.loss(ptr, reason);
        }
        describe(out, &moved);
    }

    /// One keyword: `Ok(Some(kept))`, `Ok(None)` (rewritten into `out`), `Err(value)` (moved).
    fn keyword(
        &self,
        out: &mut Map<String, Value>,
        key: &str,
        value: Value,
    ) -> Result<Option<(String, Value)>, Value> {
        let rules = self.rules();
        let kept = rules.keep.contains(&key);
        match key {
            "format" if kept => {
                let ok = value
                    .as_str()
                    .is_some_and(|f| rules.formats.contains(&f) || rules.formats == ["*"]);
                if !ok {
                    return Err(value);
                }
            }
            "pattern" if kept && !simple_pattern(value.as_str().unwrap_or_default()) => {
                return Err(value);
            }
            "const" if !rules.const_ok => {
                if value.is_string() && rules.keep.contains(&"enum") {
                    out.insert("enum".into(), Value::Array(vec![value]));
                    return Ok(None);
                }
                return Err(value);
            }
            "enum" if kept && rules.string_enums => {
                let all = value
                    .as_array()
                    .is_some_and(|v| v.iter().all(Value::is_string));
                if !all {
                    return Err(value);
                }
            }
            "minItems" if kept => {
                if let (Some(max), Some(n)) = (rules.max_min_items, value.as_u64())
                    && n > max
                {
                    return Err(value);
                }
            }
            "exclusiveMinimum" | "exclusiveMaximum" if !kept => {
                return exclusive_as_inclusive(out, key, value, rules.keep);
            }
            _ if !kept => return Err(value),
            _ => {}
        }
        Ok(Some((key.to_owned(), value)))
    }
}

/// An integer's `exclusiveMinimum: n` is `minimum: n + 1` (and `exclusiveMaximum: n` is
/// `maximum: n - 1`): the same values, in a keyword more dialects accept.
fn exclusive_as_inclusive(
    out: &mut Map<String, Value>,
    key: &str,
    value: Value,
    keep: &[&str],
) -> Result<Option<(String, Value)>, Value> {
    let (target, step) = if key == "exclusiveMinimum" {
        ("minimum", 1)
    } else {
        ("maximum", -1)
    };
    let integer = out.get("type") == Some(&Value::from("integer"));
    match value.as_i64() {
        Some(n) if integer && keep.contains(&target) && !out.contains_key(target) => {
            out.insert(target.into(), (n + step).into());
            Ok(None)
        }
        _ => Err(value),
    }
}

/// No look-around and no backreference (what OpenAI and Anthropic strict accept).
fn simple_pattern(pattern: &str) -> bool {
    let lookaround = ["(?=", "(?!", "(?<=", "(?<!"]
        .iter()
        .any(|l| pattern.contains(l));
    let backref = pattern
        .as_bytes()
        .windows(2)
        .any(|w| w[0] == b'\\' && w[1].is_ascii_digit() && w[1] != b'0');
    !lookaround && !backref
}

/// The values and descriptions of a union of string constants (`oneOf: [{const: "a"}, …]`).
fn string_constants(branches: &[Value]) -> Option<(Vec<Value>, Vec<String>)> {
    let mut values = Vec::new();
    let mut notes = Vec::new();
    for branch in branches {
        let map = branch.as_object()?;
        let extra = map
            .keys()
            .any(|k| !matches!(k.as_str(), "const" | "enum" | "type" | "description"));
        if extra || map.get("type").is_some_and(|t| t != "string") {
            return None;
        }
        let these: Vec<Value> = match (map.get("const"), map.get("enum")) {
            (Some(c @ Value::String(_)), None) => vec![c.clone()],
            (None, Some(Value::Array(e))) if e.iter().all(Value::is_string) => e.clone(),
            _ => return None,
        };
        if let Some(d) = map.get("description").and_then(Value::as_str) {
            let names: Vec<&str> = these.iter().filter_map(Value::as_str).collect();
            notes.push(format!("- `{}`: {d}", names.join("`, `")));
        }
        values.extend(these);
    }
    Some((values, notes))
}

/// Whether no value can match two branches, judged by what tells them apart: distinct
/// constants, distinct primitive types, a distinct tag property (`const`), or a distinct
/// single required key of a closed object (serde's externally tagged variants).
fn disjoint(branches: &[Value]) -> bool {
    let mut seen = std::collections::HashSet::new();
    for branch in branches {
        let Some(tokens) = signature(branch) else {
            return false;
        };
        for token in tokens {
            if !seen.insert(token) {
                return false;
            }
        }
    }
    true
}

fn signature(branch: &Value) -> Option<Vec<String>> {
    let map = branch.as_object()?;
    let t = map.get("type").and_then(Value::as_str);
    if let Some(c) = map.get("const") {
        return Some(vec![format!("value:{c}")]);
    }
    if let Some(Value::Array(values)) = map.get("enum") {
        return Some(values.iter().map(|v| format!("value:{v}")).collect());
    }
    match t {
        Some("object") => {
            let props = map.get("properties")?.as_object()?;
            let tag = props.iter().find_map(|(name, p)| {
                let c = p.get("const").or_else(|| {
                    p.get("enum")
                        .and_then(Value::as_array)
                        .filter(|e| e.len() == 1)
                        .and_then(|e| e.first())
                })?;
                Some(format!("tag:{name}={c}"))
            });
            let closed = map.get("additionalProperties") == Some(&Value::Bool(false));
            let required = map.get("required").and_then(Value::as_array);
            let key = match required.map(Vec::as_slice) {
                Some([Value::String(only)]) if closed && props.len() == 1 => {
                    Some(format!("key:{only}"))
                }
                _ => None,
            };
            tag.or(key).map(|t| vec![t])
        }
        Some(primitive) => Some(vec![format!("type:{primitive}")]),
        None => None,
    }
}

fn merge_into(out: &mut Map<String, Value>, branch: &Map<String, Value>) {
    for (key, value) in branch {
        match (key.as_str(), out.get_mut(key), value) {
            ("properties", Some(Value::Object(mine)), Value::Object(theirs)) => {
                mine.extend(theirs.clone());
            }
            ("required", Some(Value::Array(mine)), Value::Array(theirs)) => {
                mine.extend(theirs.iter().cloned());
            }
            (_, Some(_), _) => {}
            (_, None, _) => {
                out.insert(key.clone(), value.clone());
            }
        }
    }
}
