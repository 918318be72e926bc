//! The contract lock: each classification rule on a pair of real tool versions (`v1`, `v2`
//! modules holding `#[tool]` fns), the lock file's shape and round trip, and `check` writing,
//! accepting and refusing.

use schemars::JsonSchema;
use serde::Serialize;
use tool_executor::contract::{ChangeClass, CheckError, Checked, Contract, check};
use tool_executor::{ToolSet, toolset};

/// Each change as `class tool pointer: what`, in the diff's order.
fn changes(old: &ToolSet, new: &ToolSet) -> Vec<String> {
    old.contract()
        .diff(&new.contract())
        .changes()
        .iter()
        .map(|c| format!("{} {}{}: {}", c.class, c.tool, c.pointer, c.what))
        .collect()
}

/// Only the changes of `class`.
fn of_class(old: &ToolSet, new: &ToolSet, class: ChangeClass) -> Vec<String> {
    let prefix = format!("{class} ");
    changes(old, new)
        .into_iter()
        .filter(|c| c.starts_with(&prefix))
        .collect()
}

// ---- Input: breaking and additive ----

mod search_v1 {
    use tool_executor::tool;
    /// Searches the notes.
    #[tool]
    pub fn search(
        /// What to look for.
        query: &str,
        /// Also search the archive.
        #[arg(default)]
        archive: bool,
    ) -> Vec<String> {
        vec![format!("{query}{archive}")]
    }
}

mod search_new_required {
    use tool_executor::tool;
    /// Searches the notes.
    #[tool]
    pub fn search(
        /// What to look for.
        query: &str,
        /// Also search the archive.
        #[arg(default)]
        archive: bool,
        /// How many hits.
        limit: u32,
    ) -> Vec<String> {
        vec![format!("{query}{archive}{limit}")]
    }
}

mod search_new_optional {
    use tool_executor::tool;
    /// Searches the notes.
    #[tool]
    pub fn search(
        /// What to look for.
        query: &str,
        /// Also search the archive.
        #[arg(default)]
        archive: bool,
        /// How many hits.
        #[arg(default = 10)]
        limit: u32,
    ) -> Vec<String> {
        vec![format!("{query}{archive}{limit}")]
    }
}

mod search_made_required {
    use tool_executor::tool;
    /// Searches the notes.
    #[tool]
    pub fn search(
        /// What to look for.
        query: &str,
        /// Also search the archive.
        archive: bool,
    ) -> Vec<String> {
        vec![format!("{query}{archive}")]
    }
}

mod search_removed_property {
    use tool_executor::tool;
    /// Searches the notes.
    #[tool]
    pub fn search(
        /// What to look for.
        query: &str,
    ) -> Vec<String> {
        vec![query.to_owned()]
    }
}

#[test]
fn a_new_required_input_property_is_breaking() {
    let v1 = toolset![search_v1::search];
    let v2 = toolset![search_new_required::search];
    assert_eq!(
        changes(&v1, &v2),
        ["breaking search/inputSchema/properties/limit: required property `limit` added"]
    );
    assert!(v1.contract().diff(&v2.contract()).is_breaking());
}

#[test]
fn a_new_optional_input_property_is_additive() {
    let v1 = toolset![search_v1::search];
    let v2 = toolset![search_new_optional::search];
    assert_eq!(
        of_class(&v1, &v2, ChangeClass::Additive),
        ["additive search/inputSchema/properties/limit: optional property `limit` added"]
    );
    assert!(of_class(&v1, &v2, ChangeClass::Breaking).is_empty());
}

#[test]
fn an_optional_input_made_required_is_breaking_and_the_reverse_additive() {
    let v1 = toolset![search_v1::search];
    let v2 = toolset![search_made_required::search];
    assert_eq!(
        of_class(&v1, &v2, ChangeClass::Breaking),
        ["breaking search/inputSchema/properties/archive: `archive` now required"]
    );
    assert_eq!(
        of_class(&v2, &v1, ChangeClass::Additive),
        ["additive search/inputSchema/properties/archive: `archive` now optional"]
    );
}

#[test]
fn a_removed_input_property_is_breaking() {
    let v1 = toolset![search_v1::search];
    let v2 = toolset![search_removed_property::search];
    assert_eq!(
        changes(&v1, &v2),
        ["breaking search/inputSchema/properties/archive: property `archive` removed"]
    );
}

mod scale_v1 {
    use tool_executor::tool;
    /// Scales a value.
    #[tool]
    pub fn scale(factor: f64, steps: u32) -> f64 {
        factor * f64::from(steps)
    }
}

mod scale_narrow_type {
    use tool_executor::tool;
    /// Scales a value.
    #[tool]
    pub fn scale(factor: i32, steps: u32) -> f64 {
        f64::from(factor) * f64::from(steps)
    }
}

mod scale_narrow_range {
    use tool_executor::tool;
    /// Scales a value.
    #[tool]
    pub fn scale(factor: f64, steps: u8) -> f64 {
        factor * f64::from(steps)
    }
}

#[test]
fn a_narrowed_input_type_is_breaking_and_a_widened_one_additive() {
    let v1 = toolset![scale_v1::scale];
    let v2 = toolset![scale_narrow_type::scale];
    let narrowed = of_class(&v1, &v2, ChangeClass::Breaking);
    assert!(
        narrowed.contains(
            &"breaking scale/inputSchema/properties/factor: type number → integer".to_owned()
        ),
        "{narrowed:#?}"
    );
    let widened = of_class(&v2, &v1, ChangeClass::Additive);
    assert!(
        widened.contains(
            &"additive scale/inputSchema/properties/factor: type integer → number".to_owned()
        ),
        "{widened:#?}"
    );
}

#[test]
fn a_narrowed_input_range_is_breaking() {
    let v1 = toolset![scale_v1::scale];
    let v2 = toolset![scale_narrow_range::scale];
    let found = of_class(&v1, &v2, ChangeClass::Breaking);
    assert!(
        found
            .iter()
            .any(|c| c
                .starts_with("breaking scale/inputSchema/properties/steps: `maximum` none → 255")),
        "{found:#?}"
    );
}

#[derive(Debug, Clone, Copy, serde::Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
/// Temperature unit.
pub enum UnitV1 {
    /// Degrees Celsius.
    Celsius,
    /// Degrees Fahrenheit.
    Fahrenheit,
    /// Kelvin.
    Kelvin,
}

#[derive(Debug, Clone, Copy, serde::Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
/// Temperature unit.
pub enum UnitV2 {
    /// Degrees Celsius.
    Celsius,
    /// Degrees Fahrenheit.
    Fahrenheit,
}

mod convert_v1 {
    use tool_executor::tool;
    /// Converts a temperature.
    #[tool]
    pub fn convert(to: super::UnitV1) -> super::UnitV1 {
        to
    }
}

mod convert_v2 {
    use tool_executor::tool;
    /// Converts a temperature.
    #[tool]
    pub fn convert(to: super::UnitV2) -> super::UnitV2 {
        to
    }
}

#[test]
fn a_removed_input_value_is_breaking_and_an_added_output_value_too() {
    let v1 = toolset![convert_v1::convert];
    let v2 = toolset![convert_v2::convert];
    assert!(
        changes(&v1, &v2).contains(
            &"breaking convert/inputSchema/properties/to: value \"kelvin\" removed".to_owned()
        ),
        "{:#?}",
        changes(&v1, &v2)
    );
    // Output: a removed value is safe for a reader; an added one is not.
    assert!(
        changes(&v1, &v2)
            .contains(&"additive convert/outputSchema: value \"kelvin\" removed".to_owned())
    );
    assert!(
        changes(&v2, &v1)
            .contains(&"breaking convert/outputSchema: value \"kelvin\" added".to_owned())
    );
    assert!(changes(&v2, &v1).contains(
        &"additive convert/inputSchema/properties/to: value \"kelvin\" added".to_owned()
    ));
}

#[derive(Debug, Clone, Copy, serde::Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
/// Temperature unit.
pub enum Scale {
    /// Degrees Celsius.
    Celsius,
    /// Degrees Fahrenheit.
    Fahrenheit,
}

mod convert_renamed_type {
    use tool_executor::tool;
    /// Converts a temperature.
    #[tool]
    pub fn convert(to: super::Scale) -> super::Scale {
        to
    }
}

#[test]
fn a_defs_type_renamed_with_the_same_shape_is_cosmetic() {
    let v1 = toolset![convert_v2::convert];
    let v2 = toolset![convert_renamed_type::convert];
    assert_ne!(v1.contract(), v2.contract());
    assert_eq!(
        changes(&v1, &v2),
        ["cosmetic convert: the entry's text changed with no change of meaning"]
    );
}

// ---- Output ----

#[derive(Serialize, JsonSchema)]
/// A weather report.
pub struct ReportV1 {
    /// Degrees.
    pub temperature: f64,
    /// Wind in km/h.
    pub wind: f64,
    /// Readings taken.
    pub readings: u32,
}

#[derive(Serialize, JsonSchema)]
/// A weather report.
pub struct ReportV2 {
    /// Degrees.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub temperature: Option<f64>,
    /// Readings taken.
    pub readings: f64,
    /// Humidity in percent.
    pub humidity: f64,
}

mod weather_v1 {
    use tool_executor::tool;
    /// Current weather.
    #[tool]
    pub fn weather(city: &str) -> super::ReportV1 {
        let _ = city;
        super::ReportV1 {
            temperature: 20.0,
            wind: 3.0,
            readings: 1,
        }
    }
}

mod weather_v2 {
    use tool_executor::tool;
    /// Current weather.
    #[tool]
    pub fn weather(city: &str) -> super::ReportV2 {
        let _ = city;
        super::ReportV2 {
            temperature: None,
            readings: 1.0,
            humidity: 50.0,
        }
    }
}

#[test]
fn output_removed_or_now_optional_fields_and_widened_types_are_breaking() {
    let v1 = toolset![weather_v1::weather];
    let v2 = toolset![weather_v2::weather];
    let all = changes(&v1, &v2);
    for expected in [
        "breaking weather/outputSchema/properties/temperature: `temperature` now optional",
        "breaking weather/outputSchema/properties/temperature: type number → null or number",
        "breaking weather/outputSchema/properties/wind: property `wind` removed",
        "breaking weather/outputSchema/properties/readings: type integer → number",
        "additive weather/outputSchema/properties/humidity: required property `humidity` added",
    ] {
        assert!(
            all.contains(&expected.to_owned()),
            "{expected}\nnot in {all:#?}"
        );
    }
}

// ---- Tools, hints, failure codes, time limits ----

mod tools_v1 {
    use tool_executor::{ToolFailure, tool};

    #[derive(Debug, thiserror::Error, ToolFailure)]
    pub enum LookupError {
        #[error("not found")]
        #[failure(terminal)]
        NotFound,
        #[error("busy")]
        Busy,
    }

    /// Looks a key up.
    #[tool(read_only, timeout = "2s", scopes = "keys:read")]
    pub fn lookup(key: String) -> Result<String, LookupError> {
        if key.is_empty() {
            return Err(LookupError::Busy);
        }
        Ok(key)
    }

    /// Deletes a key.
    #[tool(destructive = false)]
    pub fn delete(key: &str) -> bool {
        key.is_empty()
    }

    /// Lists the keys.
    #[tool]
    pub fn keys() -> Vec<String> {
        Vec::new()
    }
}

mod tools_v2 {
    use tool_executor::{ToolFailure, tool};

    #[derive(Debug, thiserror::Error, ToolFailure)]
    pub enum LookupError {
        #[error("busy")]
        Busy,
        #[error("gone")]
        Gone,
    }

    /// Looks a key up.
    #[tool(timeout = "500ms", scopes = "keys:read keys:audit")]
    pub fn lookup(key: String) -> Result<String, LookupError> {
        if key.is_empty() {
            return Err(LookupError::Busy);
        }
        Ok(key)
    }

    /// Deletes a key.
    #[tool(destructive)]
    pub fn delete(key: &str) -> bool {
        key.is_empty()
    }

    /// Lists the keys.
    #[tool(name = "list_keys")]
    pub fn keys() -> Vec<String> {
        Vec::new()
    }

    /// Counts the keys.
    #[tool]
    pub fn count() -> u64 {
        0
    }
}

#[test]
fn tools_hints_failure_codes_and_time_limits() {
    let v1 = toolset![tools_v1::lookup, tools_v1::delete, tools_v1::keys];
    let v2 = toolset![
        tools_v2::lookup,
        tools_v2::delete,
        tools_v2::keys,
        tools_v2::count
    ];
    let all = changes(&v1, &v2);
    for expected in [
        "breaking lookup/annotations/readOnlyHint: `readOnlyHint` reversed: true → false",
        "breaking lookup/failureCodes: failure code `not_found` removed",
        "additive lookup/failureCodes: failure code `gone` added",
        "breaking lookup/timeoutMs: time limit 2000 ms → 500 ms",
        "breaking lookup/scopes: scope `keys:audit` required now",
        "breaking delete/annotations/destructiveHint: `destructiveHint` reversed: false → true",
        "breaking keys: renamed to `list_keys`",
        "additive count: tool added",
    ] {
        assert!(
            all.contains(&expected.to_owned()),
            "{expected}\nnot in {all:#?}"
        );
    }
    // The reverse: hints to the safer side, a longer limit, the tool under its old name.
    let back = changes(&v2, &v1);
    for expected in [
        "additive lookup/annotations/readOnlyHint: `readOnlyHint` false → true",
        "additive lookup/timeoutMs: time limit 500 ms → 2000 ms",
        "additive lookup/scopes: scope `keys:audit` no longer required",
        "breaking list_keys: renamed to `keys`",
        "breaking count: tool removed",
    ] {
        assert!(
            back.contains(&expected.to_owned()),
            "{expected}\nnot in {back:#?}"
        );
    }
}

// ---- Routing and cosmetic ----

mod notes_v1 {
    use tool_executor::tool;
    /// Searches the notes.
    #[tool(title = "Search notes")]
    pub fn notes(
        /// What to look for.
        query: String,
    ) -> Vec<String> {
        vec![query]
    }
}

mod notes_v2 {
    use tool_executor::tool;
    /// Finds notes whose text matches a query.
    #[tool(title = "Find notes", destructive)]
    pub fn notes(
        /// Words to find, all of them.
        query: String,
    ) -> Vec<String> {
        vec![query]
    }
}

#[test]
fn descriptions_and_titles_are_routing_and_a_default_hint_stated_is_cosmetic() {
    let v1 = toolset![notes_v1::notes];
    let v2 = toolset![notes_v2::notes];
    assert_eq!(
        of_class(&v1, &v2, ChangeClass::Routing),
        [
            "routing notes/description: description now \"Finds notes whose text matches a query.\"",
            "routing notes/annotations/title: title now \"Find notes\"",
            "routing notes/inputSchema/properties/query: `description` now \"Words to find, all of them.\"",
        ]
    );
    assert_eq!(
        of_class(&v1, &v2, ChangeClass::Cosmetic),
        [
            "cosmetic notes/annotations/destructiveHint: `destructiveHint` stated or dropped with its default value true"
        ]
    );
    // Text the renderings carry too is not repeated as a dialect change.
    assert!(of_class(&v1, &v2, ChangeClass::DialectOnly).is_empty());
    assert!(!v1.contract().diff(&v2.contract()).is_breaking());
}

// ---- Dialect-only ----

mod page_v1 {
    use tool_executor::tool;
    /// Lists a page of items.
    #[tool]
    pub fn page(
        /// Page size.
        size: u8,
    ) -> Vec<u8> {
        vec![size]
    }
}

mod page_v2 {
    use tool_executor::tool;
    /// Lists a page of items.
    #[tool]
    pub fn page(
        /// Page size.
        #[arg(default = 20)]
        size: u8,
    ) -> Vec<u8> {
        vec![size]
    }
}

#[test]
fn optional_to_nullable_required_in_openai_strict_is_dialect_only() {
    let v1 = toolset![page_v1::page];
    let v2 = toolset![page_v2::page];
    // The canonical change: the argument is optional now. OpenAI strict keeps every property
    // required and declares `null` as "not given": its own change. Anthropic and Gemini
    // render "optional" as the canonical schema does, so they add nothing.
    assert_eq!(
        changes(&v1, &v2),
        [
            "additive page/inputSchema/properties/size: `size` now optional",
            "dialect-only page/dialects/openai/function/parameters/properties/size: openai: type integer → integer or null",
            "dialect-only page/dialects/openai-responses/parameters/properties/size: openai-responses: type integer → integer or null",
        ]
    );
}

#[test]
fn a_rendering_changed_with_no_canonical_change_is_dialect_only() {
    let current = toolset![page_v1::page].contract();
    // The lock as another version of this crate might have written it: OpenAI's rendering not
    // strict, Gemini's bound another.
    let mut lock: serde_json::Value = serde_json::from_str(&current.to_json()).unwrap();
    let dialects = &mut lock["tools"]["page"]["dialects"];
    dialects["openai"]["function"]["strict"] = false.into();
    dialects["gemini"]["parameters"]["properties"]["size"]["maximum"] = 100.into();
    let lock = Contract::from_json(&lock.to_string()).unwrap();
    let found: Vec<String> = lock
        .diff(&current)
        .changes()
        .iter()
        .map(|c| format!("{} {}{}: {}", c.class, c.tool, c.pointer, c.what))
        .collect();
    assert_eq!(
        found,
        [
            "dialect-only page/dialects/gemini/parameters/properties/size: gemini: `maximum` 100 → 255",
            "dialect-only page/dialects/openai/function/strict: openai: `strict` false → true",
        ]
    );
}

// ---- No change, the file, check ----

#[test]
fn an_unchanged_set_has_no_changes_and_the_file_round_trips() {
    let tools = toolset![tools_v1::lookup, tools_v1::delete, search_v1::search];
    let contract = tools.contract();
    assert!(contract.diff(&tools.contract()).is_empty());
    let text = contract.to_json();
    assert_eq!(Contract::from_json(&text).unwrap(), contract);
    // Stable: written twice, the same bytes; tools and keys in sorted order.
    assert_eq!(text, tools.contract().to_json());
    let delete = text.find("\"delete\"").unwrap();
    assert!(delete < text.find("\"lookup\"").unwrap());
    let entry = &contract.tools()["lookup"];
    assert_eq!(
        entry["failureCodes"],
        serde_json::json!(["busy", "not_found"])
    );
    assert_eq!(entry["timeoutMs"], 2000);
    assert_eq!(entry["annotations"]["readOnlyHint"], true);
    let dialects: Vec<&String> = entry["dialects"].as_object().unwrap().keys().collect();
    assert_eq!(
        dialects,
        [
            "anthropic",
            "anthropic-strict",
            "gemini",
            "gemini-json-schema",
            "mcp",
            "openai",
            "openai-responses"
        ]
    );
    assert_eq!(entry["dialects"]["gemini"]["parameters"]["type"], "OBJECT");
}

#[test]
fn a_bad_lock_is_a_clear_error() {
    let err = Contract::from_json("{").unwrap_err().to_string();
    assert!(
        err.starts_with("not a tool contract lock: not JSON"),
        "{err}"
    );
    let err = Contract::from_json(r#"{"format": 9, "tools": {}}"#).unwrap_err();
    assert_eq!(
        err.to_string(),
        "not a tool contract lock: format 9; this version reads format 1"
    );
    let err = Contract::from_json(r#"{"format": 1, "tools": {"a": 1}}"#).unwrap_err();
    assert_eq!(
        err.to_string(),
        "not a tool contract lock: the entry of `a` is not an object"
    );
}

#[test]
fn check_writes_accepts_and_refuses() {
    let dir = std::env::temp_dir().join(format!("contract-lock-{}", std::process::id()));
    let path = dir.join("locks/tools.lock.json");
    let v1 = toolset![search_v1::search].contract();
    let v2 = toolset![search_new_required::search].contract();

    let missing = check(&v1, &path, false).unwrap_err();
    assert!(matches!(missing, CheckError::Missing(_)));
    assert!(
        missing
            .to_string()
            .contains("run with UPDATE_CONTRACT=1 to write it")
    );

    assert_eq!(check(&v1, &path, true).unwrap(), Checked::Created);
    assert_eq!(check(&v1, &path, false).unwrap(), Checked::Unchanged);

    let refused = check(&v2, &path, false).unwrap_err();
    let message = refused.to_string();
    assert!(message.contains("1 changes: 1 breaking"), "{message}");
    assert!(
        message.contains(
            "breaking      search/inputSchema/properties/limit  required property `limit` added"
        ),
        "{message}"
    );
    assert!(message.contains("UPDATE_CONTRACT=1"), "{message}");

    let Checked::Updated(accepted) = check(&v2, &path, true).unwrap() else {
        panic!("an update writes the lock");
    };
    assert_eq!(accepted.count(ChangeClass::Breaking), 1);
    assert_eq!(check(&v2, &path, false).unwrap(), Checked::Unchanged);

    std::fs::write(&path, "not json").unwrap();
    assert!(matches!(
        check(&v2, &path, false),
        Err(CheckError::Unreadable(..))
    ));
    // An update replaces it.
    assert_eq!(check(&v2, &path, true).unwrap(), Checked::Created);
    assert_eq!(check(&v2, &path, false).unwrap(), Checked::Unchanged);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn assert_contract_passes_on_a_matching_lock() {
    let dir = std::env::temp_dir().join(format!("contract-assert-{}", std::process::id()));
    let path = dir.join("tools.lock.json");
    let tools = toolset![search_v1::search];
    check(&tools.contract(), &path, true).unwrap();
    // An absolute path is used as it is.
    tool_executor::assert_contract!(tools, &path);
    std::fs::remove_dir_all(&dir).unwrap();
}

// ---- Task support ----

mod export_plain {
    use tool_executor::tool;
    /// Exports the notes.
    #[tool]
    pub fn export(format: String) -> String {
        format
    }
}

mod export_optional {
    use tool_executor::tool;
    /// Exports the notes.
    #[tool(task = "optional", ttl = "1h")]
    pub fn export(format: String) -> String {
        format
    }
}

mod export_required {
    use tool_executor::tool;
    /// Exports the notes.
    #[tool(task = "required", poll = "5s")]
    pub fn export(format: String) -> String {
        format
    }
}

#[test]
fn a_tool_made_task_only_is_breaking_and_the_rest_of_task_support_additive() {
    let plain = toolset![export_plain::export];
    let optional = toolset![export_optional::export];
    let required = toolset![export_required::export];
    assert_eq!(
        changes(&plain, &required),
        ["breaking export/taskSupport: task support forbidden → required"]
    );
    assert_eq!(
        changes(&optional, &required),
        ["breaking export/taskSupport: task support optional → required"]
    );
    assert_eq!(
        changes(&plain, &optional),
        ["additive export/taskSupport: task support forbidden → optional"]
    );
    assert_eq!(
        changes(&required, &plain),
        ["additive export/taskSupport: task support required → forbidden"]
    );
    let lock = required.contract().to_json();
    assert!(lock.contains("\"taskSupport\": \"required\""), "{lock}");
}
