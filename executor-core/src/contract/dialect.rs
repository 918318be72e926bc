//! Each provider's rendering in the lock against its rendering now. A change the canonical
//! definition explains (the same finding at the same place, or the description the canonical
//! entry changed too) is not repeated; what is left is that provider's own change,
//! [`ChangeClass::DialectOnly`]: OpenAI strict declaring a newly optional argument as required
//! and nullable, a tool no longer strict, an upgrade of this crate rendering a keyword another
//! way.

use std::collections::BTreeSet;

use serde_json::Value;

use super::change::{Canonical, Change, ChangeClass, change, obj};
use super::schema::{self, escape, short};

/// Where each provider puts the arguments schema and the result schema.
const INPUT_KEYS: [&str; 4] = [
    "parameters",
    "input_schema",
    "inputSchema",
    "parametersJsonSchema",
];
const OUTPUT_KEYS: [&str; 3] = ["response", "responseJsonSchema", "outputSchema"];

/// The dialect-only changes of tool `name`; `canonical` holds the canonical input and output
/// findings.
pub(super) fn compare(
    name: &str,
    old: &Value,
    new: &Value,
    canonical: [&Canonical; 2],
    out: &mut Vec<Change>,
) {
    let empty = Value::Null;
    let (od, nd) = (
        old.get("dialects").unwrap_or(&empty),
        new.get("dialects").unwrap_or(&empty),
    );
    let texts_changed = Texts {
        description: old.get("description") != new.get("description"),
        annotations: old.get("annotations") != new.get("annotations"),
    };
    let providers: BTreeSet<&String> = obj(od).keys().chain(obj(nd).keys()).collect();
    for provider in providers {
        let base = format!("/dialects/{}", escape(provider));
        match (od.get(provider), nd.get(provider)) {
            (Some(o), Some(n)) if o != n => {
                let found = rendering(o, n, canonical, texts_changed);
                out.extend(found.into_iter().map(|(pointer, what)| {
                    let what = format!("{provider}: {what}");
                    change(
                        ChangeClass::DialectOnly,
                        name,
                        &format!("{base}{pointer}"),
                        what,
                    )
                }));
            }
            (None, Some(_)) => {
                let what = format!("{provider}: rendered now");
                out.push(change(ChangeClass::DialectOnly, name, &base, what));
            }
            (Some(_), None) => {
                let what = format!("{provider}: no longer rendered");
                out.push(change(ChangeClass::DialectOnly, name, &base, what));
            }
            _ => {}
        }
    }
}

#[derive(Clone, Copy)]
struct Texts {
    description: bool,
    annotations: bool,
}

/// The (pointer, what) of each change in one rendering that the canonical changes do not
/// explain.
fn rendering(
    old: &Value,
    new: &Value,
    canonical: [&Canonical; 2],
    texts: Texts,
) -> Vec<(String, String)> {
    // OpenAI Chat nests the declaration under `function`.
    let (old, new, prefix) = match (old.get("function"), new.get("function")) {
        (Some(o), Some(n)) => (o, n, "/function"),
        _ => (old, new, ""),
    };
    let mut found = Vec::new();
    let keys: BTreeSet<&String> = obj(old).keys().chain(obj(new).keys()).collect();
    for key in keys {
        let (o, n) = (old.get(key), new.get(key));
        if o == n {
            continue;
        }
        let at = format!("{prefix}/{}", escape(key));
        let schema_of = if INPUT_KEYS.contains(&key.as_str()) {
            Some(canonical[0])
        } else if OUTPUT_KEYS.contains(&key.as_str()) {
            Some(canonical[1])
        } else {
            None
        };
        if let (Some(explained), Some(o), Some(n)) = (schema_of, o, n) {
            for f in schema::diff(o, n) {
                if !explained.contains(&(f.detail, f.pointer.clone())) {
                    found.push((format!("{at}{}", f.pointer), f.what));
                }
            }
            continue;
        }
        let explained = match key.as_str() {
            "description" => texts.description,
            "title" | "annotations" => texts.annotations,
            _ => false,
        };
        if !explained {
            let show = |v: Option<&Value>| v.map_or("absent".into(), short);
            found.push((at, format!("`{key}` {} → {}", show(o), show(n))));
        }
    }
    found
}
