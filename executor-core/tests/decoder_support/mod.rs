//! The rule every argument failure keeps, shared by the property tests
//! (`decoder_properties.rs`) and the `tool_arguments` fuzz target (which includes this file).

use serde_json::Value;

/// Whether `message` starts with the path it is about: `arguments: …` (the whole object), a
/// parameter's name (of `names`) then `:`, `.` or `[`, or a key of `arguments` the tool does
/// not take then `: unknown argument; …`.
pub fn names_a_path(message: &str, names: &[&str], arguments: &Value) -> bool {
    if message.starts_with("arguments: ") {
        return true;
    }
    let param = names.iter().any(|name| {
        message.strip_prefix(name).is_some_and(|rest| {
            rest.starts_with(": ") || rest.starts_with('.') || rest.starts_with('[')
        })
    });
    let unknown = arguments.as_object().is_some_and(|map| {
        map.keys()
            .filter(|key| !names.contains(&key.as_str()))
            .any(|key| message.starts_with(&format!("{key}: unknown argument; ")))
    });
    param || unknown
}
