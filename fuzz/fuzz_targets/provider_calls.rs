//! The provider tool-call parsers (`Definitions::calls`) and the answers built from what they
//! read, for every provider, on arbitrary responses.
//!
//! Half the inputs are any JSON over the providers' vocabulary; the other half are the
//! provider's own shape with fuzzed calls inside (arguments as fuzzed JSON text for the
//! providers that send a string), so the fuzzer reaches the argument handling. A response must
//! parse or be refused without a panic, and a parsed one is answered with one outcome per call.
#![no_main]

use std::sync::LazyLock;

use libfuzzer_sys::arbitrary::{Result, Unstructured};
use libfuzzer_sys::fuzz_target;
use serde_json::{Value, json};
use tool_executor::ToolSet;
use tool_executor::prelude::*;
use tool_executor::provider::{Definitions, Provider};

#[path = "common/mod.rs"]
mod common;

use common::{RUNTIME, add, json};

/// Echoes.
#[tool]
fn echo(text: String) -> String {
    text
}

const VOCABULARY: &[&str] = &[
    "choices",
    "message",
    "tool_calls",
    "function",
    "name",
    "arguments",
    "id",
    "call_id",
    "output",
    "type",
    "function_call",
    "content",
    "tool_use",
    "input",
    "candidates",
    "parts",
    "functionCall",
    "args",
    "role",
    "add",
    "echo",
    "a",
    "b",
    "text",
    "0",
];

static SET: LazyLock<ToolSet> = LazyLock::new(|| toolset![add, echo]);

/// A response in `provider`'s own shape around fuzzed calls.
fn shaped(u: &mut Unstructured<'_>, provider: Provider) -> Result<Value> {
    let n = u.int_in_range(0..=3)?;
    let mut calls = Vec::new();
    for _ in 0..n {
        let name = if u.ratio(3, 4)? {
            (*u.choose(&["add", "echo"])?).to_owned()
        } else {
            u.arbitrary()?
        };
        let id: Option<String> = u.arbitrary()?;
        let args = json::value(u, &["a", "b", "text"])?;
        // The string-argument providers: the arguments' JSON text, sometimes cut or raw.
        let text = match u.choose_index(3)? {
            0 => args.to_string(),
            1 => {
                let full = args.to_string();
                let cut = u.int_in_range(0..=full.len())?;
                full.get(..cut).unwrap_or_default().to_owned()
            }
            _ => u.arbitrary()?,
        };
        calls.push(match provider {
            Provider::OpenAiChat => {
                json!({"id": id, "type": "function", "function": {"name": name, "arguments": text}})
            }
            Provider::OpenAiResponses => {
                json!({"type": "function_call", "call_id": id, "name": name, "arguments": text})
            }
            Provider::Anthropic | Provider::AnthropicStrict => {
                json!({"type": "tool_use", "id": id, "name": name, "input": args})
            }
            _ => json!({"functionCall": {"name": name, "args": args, "id": id}}),
        });
    }
    Ok(match provider {
        Provider::OpenAiChat => {
            json!({"choices": [{"message": {"role": "assistant", "tool_calls": calls}}]})
        }
        Provider::OpenAiResponses => json!({"output": calls}),
        Provider::Anthropic | Provider::AnthropicStrict => {
            json!({"role": "assistant", "content": calls})
        }
        _ => json!({"candidates": [{"content": {"role": "model", "parts": calls}}]}),
    })
}

fn run(u: &mut Unstructured<'_>) -> Result<()> {
    let provider = *u.choose(&Provider::ALL)?;
    let response = if u.arbitrary()? {
        shaped(u, provider)?
    } else {
        json::value(u, VOCABULARY)?
    };
    let definitions = Definitions::of(&*SET, provider).expect("two distinct names");
    let Ok(calls) = definitions.calls(&response) else {
        return Ok(());
    };
    let count = calls.len();
    let answer = RUNTIME.block_on(definitions.answer_calls(&*SET, calls, 2));
    assert_eq!(answer.outcomes().len(), count, "one outcome per call");
    for message in answer.messages() {
        serde_json::to_vec(&message).expect("an answer serializes");
    }
    Ok(())
}

fuzz_target!(|data: &[u8]| {
    let _ = run(&mut Unstructured::new(data));
});
