//! Provider tool calls answered through real `#[tool]` functions: what OpenAI strict and
//! Gemini actually send decodes, failures follow the failure table, calls run concurrently
//! (bounded) and are answered in request order.

// The tools under test take owned parameters, as the model's arguments are decoded.
#![allow(clippy::needless_pass_by_value)]

use std::borrow::Cow;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use tool_executor::failure::REDACTED_MESSAGE;
use tool_executor::prelude::*;
use tool_executor::provider::{Definitions, Provider, ToolCall};
use tool_executor::{FailureKind, ToolSet};

/// Retries a job.
#[tool]
fn retry(
    /// What to run.
    job: &str,
    /// How often.
    #[arg(default = 3)]
    times: u8,
    /// A note.
    note: Option<String>,
    /// Loud.
    #[arg(default)]
    loud: bool,
) -> String {
    format!("{job} x{times} {note:?} {loud}")
}

/// Adds two integers.
#[tool]
fn add(a: i64, b: i64) -> i64 {
    a + b
}

/// Scales by a factor.
#[tool]
fn scale(x: f64, by: u8) -> f64 {
    x * f64::from(by)
}

#[derive(Debug, thiserror::Error, ToolFailure)]
enum VaultError {
    #[error("vault key {0} was rejected")]
    #[failure(terminal, redact, code = "vault_auth")]
    BadKey(String),
}

/// Opens the vault.
#[tool(name = "vault.open")]
fn vault() -> Result<String, VaultError> {
    Err(VaultError::BadKey("sk-secret".to_owned()))
}

fn tools() -> ToolSet {
    toolset![retry, add, scale, vault]
}

fn chat(calls: &[(&str, &str, &str)]) -> serde_json::Value {
    let calls: Vec<_> = calls
        .iter()
        .map(|(id, name, args)| json!({"id": id, "type": "function", "function": {"name": name, "arguments": args}}))
        .collect();
    json!({"choices": [{"index": 0, "message": {"role": "assistant", "content": null, "tool_calls": calls}, "finish_reason": "tool_calls"}]})
}

async fn contents(
    provider: Provider,
    tools: &ToolSet,
    response: &serde_json::Value,
) -> Vec<serde_json::Value> {
    let defs = tools.definitions(provider).unwrap();
    defs.answer(tools, response).await.unwrap().messages()
}

#[tokio::test]
async fn openai_strict_nulls_decode_to_none_and_the_default() {
    let tools = tools();
    let defs = tools.definitions(Provider::OpenAiChat).unwrap();
    let params = &defs.tools()[0]["function"]["parameters"];
    assert_eq!(params["required"], json!(["job", "loud", "note", "times"]));
    assert_eq!(
        params["properties"]["times"]["type"],
        json!(["integer", "null"])
    );
    let args = r#"{"job":"build","times":null,"note":null,"loud":null}"#;
    let out = contents(
        Provider::OpenAiChat,
        &tools,
        &chat(&[("c1", "retry", args)]),
    )
    .await;
    assert_eq!(
        out,
        [json!({"role": "tool", "tool_call_id": "c1", "content": "build x3 None false"})]
    );
    let args = r#"{"job":"build","times":2,"note":"hi","loud":true}"#;
    let out = contents(
        Provider::OpenAiChat,
        &tools,
        &chat(&[("c2", "retry", args)]),
    )
    .await;
    assert_eq!(out[0]["content"], "build x2 Some(\"hi\") true");
}

#[tokio::test]
async fn gemini_doubles_decode_into_integer_parameters() {
    let tools = tools();
    let response = json!({"candidates": [{"content": {"role": "model", "parts": [
        {"functionCall": {"id": "g1", "name": "add", "args": {"a": 2.0, "b": 40.0}}},
        {"functionCall": {"name": "scale", "args": {"x": 2.0, "by": 3.0}}},
        {"functionCall": {"name": "add", "args": {"a": 2.5, "b": 1.0}}}
    ]}}]});
    let out = contents(Provider::Gemini, &tools, &response).await;
    let parts = out[0]["parts"].as_array().unwrap();
    assert_eq!(
        parts[0],
        json!({"functionResponse": {"id": "g1", "name": "add", "response": {"output": 42}}})
    );
    assert_eq!(
        parts[1]["functionResponse"]["response"],
        json!({"output": 6.0})
    );
    // 2.5 is no integer: an invalid-arguments answer the model can act on.
    let error = &parts[2]["functionResponse"]["response"]["error"];
    assert_eq!(error["kind"], "invalid_arguments");
    assert_eq!(error["retryable"], true);
}

#[tokio::test]
async fn invalid_json_arguments_and_unknown_tools_are_answers_not_errors() {
    let tools = tools();
    let response = chat(&[
        ("c1", "add", r#"{"a": 1,"#),
        ("c2", "nope", "{}"),
        ("c3", "add", ""),
    ]);
    let defs = tools.definitions(Provider::OpenAiChat).unwrap();
    let answer = defs.answer(&tools, &response).await.unwrap();
    let outcomes = answer.outcomes();
    let first = outcomes[0].result.as_ref().unwrap_err();
    assert_eq!(first.kind(), FailureKind::InvalidArguments);
    assert!(
        first.message().starts_with("arguments: not valid JSON"),
        "{}",
        first.message()
    );
    assert_eq!(outcomes[1].tool, None);
    assert_eq!(
        outcomes[1].result.as_ref().unwrap_err().kind(),
        FailureKind::UnknownTool
    );
    // An empty arguments string is `{}`: the tool runs and reports both missing arguments.
    assert_eq!(
        outcomes[2].result.as_ref().unwrap_err().message(),
        "a: missing required argument; expected an integer\nb: missing required argument; expected an integer"
    );
    let messages = answer.messages();
    let unknown: serde_json::Value =
        serde_json::from_str(messages[1]["content"].as_str().unwrap()).unwrap();
    assert_eq!(
        unknown,
        json!({"error": {"message": "unknown tool `nope`", "code": "unknown_tool", "kind": "unknown_tool",
                         "classification": "ordinary", "retryable": false}})
    );
}

#[tokio::test]
async fn redacted_failures_stay_redacted_and_say_not_to_retry() {
    let tools = tools();
    let response = json!({"role": "assistant", "content": [
        {"type": "tool_use", "id": "toolu_1", "name": "vault_open", "input": {}}
    ]});
    let out = contents(Provider::Anthropic, &tools, &response).await;
    let block = &out[0]["content"][0];
    assert_eq!(block["type"], "tool_result");
    assert_eq!(block["tool_use_id"], "toolu_1");
    assert_eq!(block["is_error"], true);
    let text = block["content"].as_str().unwrap();
    assert!(!text.contains("sk-secret"), "{text}");
    let body: serde_json::Value = serde_json::from_str(text).unwrap();
    assert_eq!(
        body,
        json!({"error": {"message": REDACTED_MESSAGE, "code": "vault_auth", "kind": "tool",
                         "classification": "terminal", "retryable": false}})
    );
}

#[tokio::test]
async fn responses_items_are_answered_by_call_id() {
    let tools = tools();
    let response = json!({"object": "response", "output": [
        {"type": "reasoning", "id": "rs_1", "summary": []},
        {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "add", "arguments": "{\"a\":1,\"b\":2}"},
        {"type": "message", "role": "assistant", "content": []}
    ]});
    let out = contents(Provider::OpenAiResponses, &tools, &response).await;
    assert_eq!(
        out,
        [json!({"type": "function_call_output", "call_id": "call_1", "output": "3"})]
    );
}

#[tokio::test]
async fn responses_without_calls_answer_nothing_and_shapeless_ones_are_errors() {
    let tools = tools();
    for provider in [Provider::OpenAiChat, Provider::Anthropic, Provider::Gemini] {
        let defs = tools.definitions(provider).unwrap();
        let done = json!({"role": "assistant", "content": "Paris is sunny."});
        assert!(
            defs.answer(&tools, &done).await.unwrap().is_empty(),
            "{provider}"
        );
        let err = defs
            .answer(&tools, &json!({"weird": true}))
            .await
            .unwrap_err();
        assert!(err.to_string().starts_with("no "), "{provider}: {err}");
    }
}

/// Two calls of `add` (the second with arguments it rejects) in each provider's response.
fn two_adds(provider: Provider) -> serde_json::Value {
    match provider {
        Provider::OpenAiChat => chat(&[("c1", "add", r#"{"a":1,"b":2}"#), ("c2", "add", "{}")]),
        Provider::OpenAiResponses => json!({"output": [
            {"type": "function_call", "call_id": "c1", "name": "add", "arguments": "{\"a\":1,\"b\":2}"},
            {"type": "function_call", "call_id": "c2", "name": "add", "arguments": "{}"}
        ]}),
        Provider::Anthropic => json!({"role": "assistant", "content": [
            {"type": "text", "text": "Adding."},
            {"type": "tool_use", "id": "c1", "name": "add", "input": {"a": 1, "b": 2}},
            {"type": "tool_use", "id": "c2", "name": "add", "input": {}}
        ]}),
        _ => json!({"parts": [
            {"functionCall": {"id": "c1", "name": "add", "args": {"a": 1.0, "b": 2.0}}},
            {"functionCall": {"id": "c2", "name": "add", "args": {}}}
        ]}),
    }
}

#[tokio::test]
async fn into_messages_moves_out_the_messages_that_messages_copies() {
    let tools = tools();
    let done = json!({"role": "assistant", "content": "Done."});
    for provider in [
        Provider::OpenAiChat,
        Provider::OpenAiResponses,
        Provider::Anthropic,
        Provider::Gemini,
    ] {
        let defs = tools.definitions(provider).unwrap();
        let two = two_adds(provider);
        // The same response cut to its first call takes the one-call path.
        let mut one = two.clone();
        let pointer = match provider {
            Provider::OpenAiChat => "/choices/0/message/tool_calls",
            Provider::OpenAiResponses => "/output",
            Provider::Anthropic => "/content",
            _ => "/parts",
        };
        let list = one.pointer_mut(pointer).unwrap().as_array_mut().unwrap();
        list.pop();
        let grouped = matches!(provider, Provider::Anthropic | Provider::Gemini);
        let counts = [(&two, if grouped { 1 } else { 2 }), (&one, 1), (&done, 0)];
        for (response, count) in counts {
            let answer = defs.answer(&tools, response).await.unwrap();
            let copied = answer.messages();
            let moved = answer.into_messages();
            assert_eq!(moved.len(), count, "{provider}: {response}");
            assert_eq!(moved.collect::<Vec<_>>(), copied, "{provider}: {response}");
        }
    }
}

#[test]
fn calls_borrow_the_response_and_own_only_what_they_decode() {
    let tools = tools();
    let response = two_adds(Provider::Anthropic);
    let defs = tools.definitions(Provider::Anthropic).unwrap();
    let calls = defs.calls(&response).unwrap();
    let sent = &response["content"][1];
    assert!(std::ptr::eq(calls[0].name, sent["name"].as_str().unwrap()));
    assert!(std::ptr::eq(
        calls[0].id.unwrap(),
        sent["id"].as_str().unwrap()
    ));
    let input: &serde_json::Value = &sent["input"];
    assert!(matches!(&calls[0].arguments, Ok(Cow::Borrowed(args)) if std::ptr::eq(*args, input)));
    // A JSON string is parsed into a value of the call's own.
    let response = two_adds(Provider::OpenAiChat);
    let defs = tools.definitions(Provider::OpenAiChat).unwrap();
    let calls = defs.calls(&response).unwrap();
    assert_eq!(
        calls[0].arguments,
        Ok(Cow::<serde_json::Value>::Owned(json!({"a": 1, "b": 2})))
    );
}

static RUNNING: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

/// Yields `turns` times, tracking how many calls run at once.
#[tool]
async fn pause(turns: u32) -> u32 {
    let now = RUNNING.fetch_add(1, Ordering::SeqCst) + 1;
    PEAK.fetch_max(now, Ordering::SeqCst);
    for _ in 0..turns {
        tokio::task::yield_now().await;
    }
    RUNNING.fetch_sub(1, Ordering::SeqCst);
    turns
}

#[tokio::test(flavor = "current_thread")]
async fn calls_run_concurrently_bounded_and_answer_in_request_order() {
    let tools = toolset![pause];
    let executor: Arc<dyn ToolExecutor> = Arc::new(tools.clone());
    let defs = Definitions::of(&*executor, Provider::OpenAiChat).unwrap();
    let turns = [5, 1, 3, 1, 2];
    let ids: Vec<String> = (0..turns.len()).map(|i| format!("c{i}")).collect();
    let calls: Vec<ToolCall> = turns
        .iter()
        .zip(&ids)
        .map(|(t, id)| ToolCall {
            id: Some(id),
            name: "pause",
            arguments: Ok(Cow::Owned(json!({"turns": t}))),
        })
        .collect();
    for (limit, peak) in [(2, 2), (8, 5), (1, 1)] {
        PEAK.store(0, Ordering::SeqCst);
        let answer = defs.answer_calls(&*executor, calls.clone(), limit).await;
        assert_eq!(PEAK.load(Ordering::SeqCst), peak, "limit {limit}");
        let ids: Vec<_> = answer
            .outcomes()
            .iter()
            .map(|o| o.call.id.unwrap())
            .collect();
        assert_eq!(ids, ["c0", "c1", "c2", "c3", "c4"]);
        let outputs: Vec<_> = answer
            .outcomes()
            .iter()
            .map(|o| o.result.clone().unwrap())
            .collect();
        assert_eq!(outputs, turns.map(|t| json!(t)));
    }
}

/// A unit enum parameter.
#[derive(
    Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
enum Mode {
    /// Fast.
    Fast,
    /// Careful.
    Careful,
}

/// Echoes every parameter back, decoded.
#[tool]
#[allow(clippy::too_many_arguments)] // one parameter per type under test
fn echo_all(
    small: i8,
    big: u64,
    ratio: f32,
    maybe: Option<i32>,
    mode: Mode,
    #[arg(default = 7)] port: u16,
    list: Vec<i64>,
    label: Option<String>,
) -> serde_json::Value {
    json!([small, big, ratio, maybe, mode, port, list, label])
}

/// How each provider sends `args`: OpenAI strict sends every key (`null` for the ones left
/// out) as a JSON string; Gemini sends every number as a double; Anthropic sends the object.
fn encoded(provider: Provider, args: &serde_json::Value) -> serde_json::Value {
    let mut full = args.as_object().cloned().unwrap_or_default();
    match provider {
        Provider::OpenAiChat => {
            for key in [
                "small", "big", "ratio", "maybe", "mode", "port", "list", "label",
            ] {
                full.entry(key).or_insert(serde_json::Value::Null);
            }
            let arguments = serde_json::Value::Object(full).to_string();
            chat(&[("c", "echo_all", &arguments)])
        }
        Provider::Gemini => {
            fn doubles(v: &serde_json::Value) -> serde_json::Value {
                match v {
                    serde_json::Value::Number(n) => json!(n.as_f64().unwrap()),
                    serde_json::Value::Array(a) => a.iter().map(doubles).collect(),
                    other => other.clone(),
                }
            }
            let args: serde_json::Map<_, _> =
                full.iter().map(|(k, v)| (k.clone(), doubles(v))).collect();
            json!({"parts": [{"functionCall": {"name": "echo_all", "args": args}}]})
        }
        _ => {
            json!({"content": [{"type": "tool_use", "id": "t", "name": "echo_all", "input": full}]})
        }
    }
}

#[tokio::test]
async fn every_parameter_type_round_trips_through_each_provider() {
    let tools = toolset![echo_all];
    let samples = [
        (
            json!({"small": -128, "big": 9_007_199_254_740_992_u64, "ratio": 0.5, "mode": "fast", "list": []}),
            json!([
                -128,
                9_007_199_254_740_992_u64,
                0.5,
                null,
                "fast",
                7,
                [],
                null
            ]),
        ),
        (
            json!({"small": 127, "big": 0, "ratio": -2.25, "maybe": -5, "mode": "careful", "port": 65535, "list": [-3, 4], "label": "x"}),
            json!([127, 0, -2.25, -5, "careful", 65535, [-3, 4], "x"]),
        ),
        (
            json!({"small": 0, "big": 42, "ratio": 3.0, "maybe": 0, "mode": "fast", "port": 0, "list": [9_007_199_254_740_991_i64]}),
            json!([0, 42, 3.0, 0, "fast", 0, [9_007_199_254_740_991_i64], null]),
        ),
    ];
    for provider in [Provider::OpenAiChat, Provider::Anthropic, Provider::Gemini] {
        let defs = tools.definitions(provider).unwrap();
        for (args, expected) in &samples {
            let response = encoded(provider, args);
            let answer = defs.answer(&tools, &response).await.unwrap();
            let result = answer.outcomes()[0].result.clone();
            assert_eq!(result.as_ref(), Ok(expected), "{provider}: {args}");
        }
    }
}

/// The largest magnitude up to which Gemini's doubles hold every integer.
const EXACT: u64 = 1 << 53;

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 128, ..Default::default() })]

    /// Generated values of every parameter type, encoded as each provider sends them, decode to
    /// the same Rust values; for Gemini, integers past ±2^53 are left out (the definitions
    /// report them as a loss: they arrive rounded).
    #[test]
    fn generated_parameter_values_round_trip_through_each_provider(
        small: i8,
        big: u64,
        ratio in proptest::num::f32::NORMAL | proptest::num::f32::ZERO,
        maybe: Option<i32>,
        careful: bool,
        port: Option<u16>,
        list in proptest::collection::vec(proptest::prelude::any::<i64>(), 0..4),
        label in proptest::option::of("[a-zA-Z0-9 \"\\\\é]{0,12}"),
    ) {
        let mode = if careful { Mode::Careful } else { Mode::Fast };
        let mut args = json!({"small": small, "big": big, "ratio": ratio, "mode": mode, "list": list});
        for (key, value) in [("maybe", json!(maybe)), ("port", json!(port)), ("label", json!(label))] {
            if !value.is_null() {
                args[key] = value;
            }
        }
        let expected = json!([small, big, ratio, maybe, mode, port.unwrap_or(7), list, label]);
        let exact = big <= EXACT && list.iter().all(|i| i.unsigned_abs() <= EXACT);
        let tools = toolset![echo_all];
        let rt = tokio::runtime::Builder::new_current_thread().build().unwrap();
        for provider in [Provider::OpenAiChat, Provider::Anthropic, Provider::Gemini] {
            if provider == Provider::Gemini && !exact {
                continue;
            }
            let defs = tools.definitions(provider).unwrap();
            let response = encoded(provider, &args);
            let answer = rt.block_on(defs.answer(&tools, &response)).unwrap();
            proptest::prop_assert_eq!(
                answer.outcomes()[0].result.as_ref(), Ok(&expected), "{}: {}", provider, args
            );
        }
    }
}
