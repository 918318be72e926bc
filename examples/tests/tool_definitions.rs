//! The quickstart and MCP demo tools in every provider's request shape: snapshots
//! (`tests/snapshots/`, `UPDATE_EXPECT=1` rewrites them), every tool checked against the
//! provider rules as code, the losses asserted, and the recorded provider responses answered.

use expect_test::expect_file;
use tool_executor::ToolSet;
use tool_executor::provider::Provider;

#[allow(dead_code)] // the tour's `main` is not run here
#[path = "../quickstart.rs"]
mod quickstart;

#[allow(dead_code)] // the server's `main` is not run here
#[path = "../mcp_server.rs"]
mod demo;

#[path = "../../executor-core/tests/dialect_rules/mod.rs"]
mod dialect_rules;

fn sets() -> [(&'static str, ToolSet); 2] {
    [
        ("quickstart", quickstart::tools().unwrap()),
        ("demo", demo::tools()),
    ]
}

fn pretty(value: &impl serde::Serialize) -> String {
    serde_json::to_string_pretty(value).unwrap() + "\n"
}

#[test]
fn definitions_match_their_snapshots_and_pass_every_provider_rule() {
    let mut summary = Vec::new();
    for (set, tools) in sets() {
        for provider in Provider::ALL {
            let defs = tools.definitions(provider).unwrap();
            expect_file![format!("snapshots/{set}_{provider}.json")].assert_eq(&pretty(&*defs));
            let (broken, strict) =
                dialect_rules::check_definitions(provider.as_str(), defs.tools());
            assert!(broken.is_empty(), "{}", broken.join("\n"));
            let losses: Vec<String> = defs
                .losses()
                .iter()
                .map(|l| format!("{} {}: {}", l.tool, l.pointer, l.reason))
                .collect();
            summary.push(format!(
                "{set} {provider}: {} tools pass, {strict} strict, losses {losses:?}",
                tools.len()
            ));
        }
    }
    let expected = expect_test::expect![[r#"
        quickstart openai: 6 tools pass, 6 strict, losses []
        quickstart openai-responses: 6 tools pass, 6 strict, losses []
        quickstart anthropic: 6 tools pass, 0 strict, losses []
        quickstart anthropic-strict: 6 tools pass, 6 strict, losses ["bump /properties/by: not enforced, moved into the description: minimum"]
        quickstart gemini: 6 tools pass, 0 strict, losses ["add /properties/a: Gemini carries numbers as doubles: integers beyond ±2^53 (9007199254740992) arrive rounded", "add /properties/b: Gemini carries numbers as doubles: integers beyond ±2^53 (9007199254740992) arrive rounded", "add : Gemini carries numbers as doubles: integers beyond ±2^53 (9007199254740992) arrive rounded", "bump /properties/by: Gemini carries numbers as doubles: integers beyond ±2^53 (9007199254740992) arrive rounded", "bump : Gemini carries numbers as doubles: integers beyond ±2^53 (9007199254740992) arrive rounded", "read : Gemini carries numbers as doubles: integers beyond ±2^53 (9007199254740992) arrive rounded"]
        quickstart gemini-json-schema: 6 tools pass, 0 strict, losses ["add /properties/a: Gemini carries numbers as doubles: integers beyond ±2^53 (9007199254740992) arrive rounded", "add /properties/b: Gemini carries numbers as doubles: integers beyond ±2^53 (9007199254740992) arrive rounded", "add : Gemini carries numbers as doubles: integers beyond ±2^53 (9007199254740992) arrive rounded", "bump /properties/by: Gemini carries numbers as doubles: integers beyond ±2^53 (9007199254740992) arrive rounded", "bump : Gemini carries numbers as doubles: integers beyond ±2^53 (9007199254740992) arrive rounded", "read : Gemini carries numbers as doubles: integers beyond ±2^53 (9007199254740992) arrive rounded"]
        quickstart mcp: 6 tools pass, 0 strict, losses []
        demo openai: 7 tools pass, 7 strict, losses []
        demo openai-responses: 7 tools pass, 7 strict, losses []
        demo anthropic: 7 tools pass, 0 strict, losses []
        demo anthropic-strict: 7 tools pass, 7 strict, losses ["slow /properties/seconds: not enforced, moved into the description: minimum", "report /properties/seconds: not enforced, moved into the description: minimum"]
        demo gemini: 7 tools pass, 0 strict, losses ["add /properties/a: Gemini carries numbers as doubles: integers beyond ±2^53 (9007199254740992) arrive rounded", "add /properties/b: Gemini carries numbers as doubles: integers beyond ±2^53 (9007199254740992) arrive rounded", "add : Gemini carries numbers as doubles: integers beyond ±2^53 (9007199254740992) arrive rounded", "slow /properties/seconds: Gemini carries numbers as doubles: integers beyond ±2^53 (9007199254740992) arrive rounded", "report /properties/seconds: Gemini carries numbers as doubles: integers beyond ±2^53 (9007199254740992) arrive rounded"]
        demo gemini-json-schema: 7 tools pass, 0 strict, losses ["add /properties/a: Gemini carries numbers as doubles: integers beyond ±2^53 (9007199254740992) arrive rounded", "add /properties/b: Gemini carries numbers as doubles: integers beyond ±2^53 (9007199254740992) arrive rounded", "add : Gemini carries numbers as doubles: integers beyond ±2^53 (9007199254740992) arrive rounded", "slow /properties/seconds: Gemini carries numbers as doubles: integers beyond ±2^53 (9007199254740992) arrive rounded", "report /properties/seconds: Gemini carries numbers as doubles: integers beyond ±2^53 (9007199254740992) arrive rounded"]
        demo mcp: 7 tools pass, 0 strict, losses []"#]];
    expected.assert_eq(&summary.join("\n"));
}

#[tokio::test]
async fn recorded_provider_responses_are_answered_in_their_shape() {
    let tools = quickstart::tools().unwrap();
    for provider in [
        Provider::OpenAiChat,
        Provider::OpenAiResponses,
        Provider::Anthropic,
        Provider::Gemini,
    ] {
        let path = format!(
            "{}/../executor-core/tests/fixtures/providers/{provider}.json",
            env!("CARGO_MANIFEST_DIR")
        );
        let response: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        let defs = tools.definitions(provider).unwrap();
        let answer = defs.answer(&tools, &response).await.unwrap();
        expect_file![format!("snapshots/answer_{provider}.json")]
            .assert_eq(&pretty(&answer.messages()));
    }
}
