//! Tool search: `search_tools` over a 200-tool set (generated specs), served in front of the
//! set; bad arguments refused; and the providers' deferred loading.

use std::sync::Arc;

use serde_json::{Value, json};
use tool_executor::provider::{DeferError, Provider};
use tool_executor::search::{SEARCH_TOOL, SearchTools, ToolIndex};
use tool_executor::tool::{BoxFuture, SpecList};
use tool_executor::{
    ContextExecutor, FailureKind, ToolContext, ToolExecution, ToolExecutor, ToolFailure, ToolSpec,
    toolset,
};

const VERBS: [&str; 10] = [
    "get", "list", "create", "update", "delete", "archive", "export", "import", "sync", "share",
];
const NOUNS: [&str; 20] = [
    "invoice",
    "customer",
    "order",
    "ticket",
    "user",
    "project",
    "report",
    "calendar_event",
    "email",
    "file",
    "folder",
    "repository",
    "issue",
    "payment",
    "subscription",
    "shipment",
    "product",
    "review",
    "contact",
    "team",
];

/// 200 specs: every verb on every noun, each with an id parameter; the currency converter
/// replaces one of them, so the set stays at 200.
fn specs() -> Vec<Arc<ToolSpec>> {
    let mut specs = Vec::new();
    for noun in NOUNS {
        for verb in VERBS {
            let words = noun.replace('_', " ");
            let spec = ToolSpec::new(
                format!("{verb}_{noun}"),
                format!("{verb} a {words} in the workspace."),
                json!({
                    "type": "object",
                    "properties": {format!("{noun}_id"): {"type": "string", "description": format!("The {words}'s id.")}},
                    "required": [format!("{noun}_id")]
                }),
            );
            specs.push(Arc::new(spec));
        }
    }
    specs[137] = Arc::new(ToolSpec::new(
        "convert_currency",
        "Converts an amount of money from one currency to another (dollars, euros, yen).",
        json!({
            "type": "object",
            "properties": {
                "amount": {"type": "number"},
                "from": {"type": "string", "description": "ISO code of the currency held."},
                "to": {"type": "string", "description": "ISO code of the currency wanted."}
            },
            "required": ["amount", "from", "to"]
        }),
    ));
    specs
}

/// Serves the 200 specs: each call answers with the tool's name and its arguments.
struct Large(SpecList);

impl ContextExecutor for Large {
    fn dispatch<'a>(
        &'a self,
        tool: &'a str,
        params: &'a Value,
        _ctx: ToolContext,
    ) -> BoxFuture<'a, Result<ToolExecution, ToolFailure>> {
        let known = self.0.iter().any(|s| s.name == tool);
        Box::pin(async move {
            if known {
                Ok(ToolExecution::output_only(
                    json!({"tool": tool, "args": params}),
                ))
            } else {
                Err(ToolFailure::unknown_tool(tool))
            }
        })
    }

    fn list_specs(&self) -> SpecList {
        Arc::clone(&self.0)
    }
}

fn large() -> SearchTools {
    let specs = specs();
    assert_eq!(specs.len(), 200);
    SearchTools::new(Arc::new(Large(specs.into()))).unwrap()
}

fn names(found: &Value) -> Vec<&str> {
    found["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect()
}

#[tokio::test]
async fn search_finds_a_tool_in_a_200_tool_set() {
    let tools = large();
    assert_eq!(tools.index().len(), 200);
    let listed: Vec<String> = tools.specs().iter().map(|s| s.name.clone()).collect();
    assert_eq!(listed, [SEARCH_TOOL]);

    let found = tools
        .execute(
            SEARCH_TOOL,
            &json!({"query": "convert 20 dollars to euros"}),
        )
        .await
        .unwrap();
    assert_eq!(names(&found)[0], "convert_currency");
    assert_eq!(
        found["tools"][0]["inputSchema"]["required"],
        json!(["amount", "from", "to"])
    );

    // Names split into words, plurals folded: "tickets" finds `archive_ticket` first.
    let found = tools
        .execute(
            SEARCH_TOOL,
            &json!({"query": "archive the old tickets", "limit": 3}),
        )
        .await
        .unwrap();
    let found = names(&found);
    assert_eq!(found.len(), 3);
    assert_eq!(found[0], "archive_ticket");

    // A parameter's name counts: `calendarEvent` and `calendar_event_id` meet.
    let found = tools
        .execute(SEARCH_TOOL, &json!({"query": "shareCalendarEvent"}))
        .await
        .unwrap();
    assert_eq!(names(&found)[0], "share_calendar_event");

    // A tool found is called by its name, though it is not listed.
    let out = tools
        .execute(
            "convert_currency",
            &json!({"amount": 20, "from": "USD", "to": "EUR"}),
        )
        .await
        .unwrap();
    assert_eq!(out["tool"], "convert_currency");

    // Nothing in common, nothing found.
    let none = tools
        .execute(SEARCH_TOOL, &json!({"query": "zzyzx"}))
        .await
        .unwrap();
    assert_eq!(none, json!({"tools": []}));
}

#[tokio::test]
async fn bad_search_arguments_are_invalid_arguments_failures() {
    let tools = large().max_results(10);
    let cases = [
        (json!("weather"), "expected an object of arguments"),
        (json!({}), "missing argument `query`"),
        (json!({"query": 3}), "query: expected a string"),
        (
            json!({"query": "x".repeat(1001)}),
            "query: longer than 1000 characters",
        ),
        (
            json!({"query": "x", "limit": 0}),
            "limit: expected an integer from 1 to 10",
        ),
        (
            json!({"query": "x", "limit": 11}),
            "limit: expected an integer from 1 to 10",
        ),
        (
            json!({"query": "x", "top": 1}),
            "unknown argument `top`; expected `query` and `limit`",
        ),
    ];
    for (params, message) in cases {
        let failure = tools
            .execute_with_context(SEARCH_TOOL, &params, ToolContext::new())
            .await
            .unwrap_err();
        assert_eq!(failure.kind(), FailureKind::InvalidArguments, "{params}");
        assert_eq!(failure.message(), message);
    }
    assert_eq!(
        tools.specs()[0].input_schema["properties"]["limit"]["maximum"],
        10
    );
}

#[test]
fn listing_names_tools_beside_the_search_and_refuses_unknown_ones() {
    let tools = large().listing(["get_invoice"]).unwrap();
    let listed: Vec<String> = tools.specs().iter().map(|s| s.name.clone()).collect();
    assert_eq!(listed, [SEARCH_TOOL, "get_invoice"]);
    let err = large().listing(["nope"]).unwrap_err();
    assert_eq!(
        err.to_string(),
        "`nope` is not a tool of the wrapped executor, so it cannot be listed"
    );
}

#[test]
fn a_set_with_its_own_search_tools_is_refused() {
    /// Already has one.
    #[tool_executor::tool(name = "search_tools")]
    fn own(query: String) -> String {
        query
    }
    let err = SearchTools::new(Arc::new(toolset![own])).unwrap_err();
    assert_eq!(err.to_string(), "two tools are named `search_tools`");
}

#[test]
fn the_index_ranks_name_matches_above_description_matches() {
    let index = ToolIndex::new(specs());
    let hits = index.search("delete customer", 5);
    assert_eq!(hits[0].spec.name, "delete_customer");
    assert!(hits.windows(2).all(|w| w[0].score >= w[1].score));
}

// ---- Deferred loading ----

fn three() -> tool_executor::ToolSet {
    /// Current weather for a city.
    #[tool_executor::tool]
    fn weather(city: String) -> String {
        city
    }
    /// Sends an email.
    #[tool_executor::tool]
    fn send_email(to: &str) -> bool {
        !to.is_empty()
    }
    /// Books a meeting room.
    #[tool_executor::tool(name = "rooms.book")]
    fn book(room: &str) -> bool {
        !room.is_empty()
    }
    toolset![weather, send_email, book]
}

#[test]
fn openai_responses_marks_deferred_functions_and_adds_tool_search() {
    let tools = three();
    let defs = tools.definitions(Provider::OpenAiResponses).unwrap();
    let defs = (*defs).clone().defer_loading(["weather"]).unwrap();
    let declared = defs.tools().as_array().unwrap();
    assert_eq!(declared.len(), 4);
    assert_eq!(declared[0]["name"], "weather");
    assert_eq!(declared[0].get("defer_loading"), None);
    assert_eq!(declared[1]["defer_loading"], true);
    assert_eq!(declared[2]["name"], "rooms_book");
    assert_eq!(declared[2]["defer_loading"], true);
    assert_eq!(declared[3], json!({"type": "tool_search"}));
    // Calls of a deferred tool are read back as before.
    assert_eq!(defs.tool_name("rooms_book"), Some("rooms.book"));
}

#[test]
fn anthropic_marks_deferred_tools_and_adds_its_bm25_search() {
    for provider in [Provider::Anthropic, Provider::AnthropicStrict] {
        let defs = three().definitions(provider).unwrap();
        let defs = (*defs).clone().defer_loading::<_, &str>([]).unwrap();
        let declared = defs.tools().as_array().unwrap();
        assert!(declared[..3].iter().all(|t| t["defer_loading"] == true));
        assert_eq!(
            declared[3],
            json!({"type": "tool_search_tool_bm25_20251119", "name": "tool_search_tool_bm25"})
        );
    }
}

#[test]
fn providers_without_deferred_loading_say_what_to_use_instead() {
    for provider in [
        Provider::OpenAiChat,
        Provider::Gemini,
        Provider::GeminiJsonSchema,
        Provider::Mcp,
    ] {
        let defs = three().definitions(provider).unwrap();
        let err = (*defs).clone().defer_loading(["weather"]).unwrap_err();
        assert_eq!(err, DeferError::Unsupported(provider));
        assert!(err.to_string().contains("SearchTools"), "{err}");
    }
    let defs = three().definitions(Provider::Anthropic).unwrap();
    let err = (*defs).clone().defer_loading(["nope"]).unwrap_err();
    assert_eq!(err, DeferError::UnknownTool("nope".into()));
}
