//! Gemini's rules beyond its schema subset: parameter names (mapped, and mapped back when the
//! call arrives) and integers that travel as doubles (a loss past ±2^53).

mod dialect_rules;

use serde_json::{Value, json};
use tool_executor::prelude::*;
use tool_executor::provider::{Provider, SchemaRole, ToolLoss};
use tool_executor::schema::dialect::Dialect;

/// Looks a user up.
#[tool]
fn lookup(
    /// The user's id.
    #[arg(rename = "user-id")]
    user: &str,
    /// Already a Gemini name, and what `user-id` would map to.
    #[arg(default)]
    user_id: u8,
    /// Starts with a digit.
    #[arg(rename = "2fa", default)]
    two_factor: bool,
) -> String {
    format!("{user}/{user_id}/{two_factor}")
}

/// Counts up from a 64-bit start.
#[tool]
fn count_from(start: u64, step: i32) -> i64 {
    i64::try_from(start).unwrap_or(i64::MAX) + i64::from(step)
}

fn gemini_call(name: &str, args: &Value) -> Value {
    json!({"candidates": [{"content": {"role": "model", "parts": [
        {"functionCall": {"name": name, "args": args}}
    ]}}]})
}

#[test]
fn refused_parameter_names_are_mapped_for_both_gemini_dialects_and_nowhere_else() {
    let tools = toolset![lookup];
    for (provider, key) in [
        (Provider::Gemini, "parameters"),
        (Provider::GeminiJsonSchema, "parametersJsonSchema"),
    ] {
        let defs = tools.definitions(provider).unwrap();
        let declared = &defs.tools()[0]["functionDeclarations"][0][key];
        let mut names: Vec<&str> = declared["properties"]
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        names.sort_unstable();
        assert_eq!(names, ["_2fa", "user_id", "user_id_2"], "{provider}");
        assert_eq!(declared["required"], json!(["user_id_2"]), "{provider}");
        assert_eq!(
            declared["properties"]["user_id_2"]["description"],
            "The user's id."
        );
        let (broken, _) = dialect_rules::check_definitions(provider.as_str(), defs.tools());
        assert!(broken.is_empty(), "{}", broken.join("\n"));
        // A rename keeps what the schema accepts: no loss.
        assert!(defs.losses().is_empty(), "{:?}", defs.losses());
    }
    let anthropic = Dialect::Anthropic.input(&tools.spec("lookup").unwrap().input_schema);
    assert!(anthropic.schema["properties"].get("user-id").is_some());
    assert!(anthropic.renamed_arguments.is_empty());
}

#[tokio::test]
async fn a_call_with_mapped_names_reaches_the_tool_under_its_own_names() {
    let tools = toolset![lookup];
    for provider in [Provider::Gemini, Provider::GeminiJsonSchema] {
        let defs = tools.definitions(provider).unwrap();
        let call = gemini_call(
            "lookup",
            &json!({"user_id_2": "ada", "user_id": 7.0, "_2fa": true}),
        );
        let answer = defs.answer(&tools, &call).await.unwrap();
        assert_eq!(
            answer.outcomes()[0].result,
            Ok(json!("ada/7/true")),
            "{provider}"
        );
        // The tool's own names still reach it unchanged.
        let call = gemini_call("lookup", &json!({"user-id": "ada"}));
        let answer = defs.answer(&tools, &call).await.unwrap();
        assert_eq!(answer.outcomes()[0].result, Ok(json!("ada/0/false")));
    }
}

#[test]
fn integers_past_two_to_the_53_are_losses_for_gemini_only() {
    let tools = toolset![count_from];
    let reason = "Gemini carries numbers as doubles: integers beyond ±2^53 \
                  (9007199254740992) arrive rounded";
    for provider in [Provider::Gemini, Provider::GeminiJsonSchema] {
        let defs = tools.definitions(provider).unwrap();
        let expected = [
            (SchemaRole::Input, "/properties/start"),
            (SchemaRole::Output, ""),
        ]
        .map(|(schema, pointer)| ToolLoss {
            tool: "count_from".to_owned(),
            schema,
            pointer: pointer.to_owned(),
            reason: reason.to_owned(),
        });
        assert_eq!(defs.losses(), expected, "{provider}");
    }
    for provider in [Provider::OpenAiChat, Provider::Anthropic, Provider::Mcp] {
        assert!(tools.definitions(provider).unwrap().losses().is_empty());
    }
}

#[tokio::test]
async fn integers_within_two_to_the_53_arrive_exactly_from_gemini_doubles() {
    let tools = toolset![count_from];
    let defs = tools.definitions(Provider::Gemini).unwrap();
    let exact = 9_007_199_254_740_992.0_f64; // 2^53, a double exactly
    let call = gemini_call("count_from", &json!({"start": exact, "step": -2.0}));
    let answer = defs.answer(&tools, &call).await.unwrap();
    assert_eq!(
        answer.outcomes()[0].result,
        Ok(json!(9_007_199_254_740_990_i64))
    );
}
