//! The provider loop's deferred calls: a tool that asks its user (`#[tool(confirm)]`,
//! `ctx.elicit`, `ctx.confirm`, sync or async) waits instead of failing; the application
//! records the reply and `Definitions::resume` runs it again with the answer. And
//! `Runtime::with_approver` answers the questions of the calls a runtime makes.

use std::sync::atomic::{AtomicU32, Ordering};

use serde_json::{Value, json};
use tool_executor::elicit::{Answer, Form, Question, Reply};
use tool_executor::provider::{Definitions, Provider, Waiting};
use tool_executor::runtime::{CallOptions, Runtime};
use tool_executor::{ToolContext, ToolExecutor, ToolFailure, tool, toolset};

static DELETED: AtomicU32 = AtomicU32::new(0);
static LOOKED_UP: AtomicU32 = AtomicU32::new(0);
static BOOKED: AtomicU32 = AtomicU32::new(0);

/// Deletes a note.
#[tool(confirm, destructive)]
async fn delete_note(id: u32) -> String {
    tokio::task::yield_now().await; // the deletion's I/O
    DELETED.fetch_add(1, Ordering::SeqCst);
    format!("note {id} deleted")
}

/// Wipes a folder: a sync tool that asks.
#[tool(confirm)]
fn wipe(folder: &str) -> String {
    format!("{folder} wiped")
}

/// Looks a note up (never asks).
#[tool(read_only)]
fn lookup(id: u32) -> String {
    LOOKED_UP.fetch_add(1, Ordering::SeqCst);
    format!("note {id}")
}

#[derive(Form, Debug)]
struct Seats {
    /// How many seats.
    #[form(min = 1, max = 8)]
    count: u8,
}

/// Books seats, asking how many, then to confirm the price.
#[tool]
async fn book(ctx: &ToolContext, show: String) -> Result<String, ToolFailure> {
    let Answer::Accepted(seats) = ctx.elicit::<Seats>(format!("Seats for {show}?")).await? else {
        return Ok("nothing booked".into());
    };
    let price = u32::from(seats.count) * 12;
    if !ctx.confirm(format!("Pay {price} €?")).await? {
        return Ok("not paid".into());
    }
    BOOKED.fetch_add(1, Ordering::SeqCst);
    Ok(format!("{} seats for {show}, {price} €", seats.count))
}

fn completion(calls: &[(&str, &str, Value)]) -> Value {
    let calls: Vec<Value> = calls
        .iter()
        .map(|(id, name, args)| {
            json!({"id": id, "type": "function",
                   "function": {"name": name, "arguments": args.to_string()}})
        })
        .collect();
    json!({"choices": [{"message": {"role": "assistant", "tool_calls": calls}}]})
}

fn setup() -> (impl ToolExecutor, std::sync::Arc<Definitions>) {
    let tools = toolset![delete_note, wipe, lookup, book];
    let defs = tools.definitions(Provider::OpenAiChat).unwrap();
    (tools, defs)
}

#[tokio::test]
async fn a_confirm_tool_waits_without_running_and_runs_once_approved() {
    let (tools, defs) = setup();
    let response = completion(&[("call_1", "delete_note", json!({"id": 4}))]);
    let before = DELETED.load(Ordering::SeqCst);
    let answer = defs.answer(&tools, &response).await.unwrap();
    assert!(answer.is_waiting());
    assert_eq!(DELETED.load(Ordering::SeqCst), before, "the body waits");
    let (outcome, waiting) = answer.waiting().next().unwrap();
    assert_eq!(outcome.call.id, Some("call_1"));
    assert_eq!(outcome.tool, Some("delete_note"));
    assert!(waiting.is_confirmation());
    assert_eq!(waiting.message(), "Run delete_note with id = 4?");
    // Sent without resolving, the model is told the call waits.
    let content = json!({"error": {
        "classification": "terminal", "code": "input_required", "kind": "tool",
        "message": "`delete_note` is waiting for the user to answer: Run delete_note with id = 4?",
        "retryable": false
    }});
    assert_eq!(
        answer.messages(),
        vec![json!({"role": "tool", "tool_call_id": "call_1", "content": content.to_string()})]
    );

    // Resuming with no reply recorded changes nothing.
    let mut answer = defs.resume(&tools, answer).await;
    assert!(answer.is_waiting());

    answer.waiting_mut().for_each(Waiting::approve);
    let answer = defs.resume(&tools, answer).await;
    assert!(!answer.is_waiting());
    assert_eq!(answer.outcomes()[0].result, Ok(json!("note 4 deleted")));
    assert_eq!(DELETED.load(Ordering::SeqCst), before + 1);
    assert_eq!(
        answer.into_messages().collect::<Vec<_>>(),
        vec![json!({"role": "tool", "tool_call_id": "call_1", "content": "note 4 deleted"})]
    );
}

#[tokio::test]
async fn a_denied_call_answers_the_model_that_the_user_did_not_approve() {
    let (tools, defs) = setup();
    let response = completion(&[("call_1", "delete_note", json!({"id": 5}))]);
    let before = DELETED.load(Ordering::SeqCst);
    let mut answer = defs.answer(&tools, &response).await.unwrap();
    answer.waiting_mut().for_each(Waiting::deny);
    let answer = defs.resume(&tools, answer).await;
    assert!(!answer.is_waiting());
    let refused = answer.outcomes()[0].result.as_ref().unwrap_err();
    assert_eq!(refused.code(), "not_approved");
    assert_eq!(DELETED.load(Ordering::SeqCst), before);
}

#[tokio::test]
async fn a_sync_tool_waits_and_resumes_the_same_way() {
    let (tools, defs) = setup();
    let response = completion(&[("call_9", "wipe", json!({"folder": "tmp"}))]);
    let mut answer = defs.answer(&tools, &response).await.unwrap();
    let (_, waiting) = answer.waiting().next().expect("the sync tool waits");
    assert_eq!(waiting.message(), "Run wipe with folder = \"tmp\"?");
    answer.waiting_mut().for_each(Waiting::approve);
    let answer = defs.resume(&tools, answer).await;
    assert_eq!(answer.outcomes()[0].result, Ok(json!("tmp wiped")));
}

#[tokio::test]
async fn questions_come_one_at_a_time_and_earlier_answers_are_replayed() {
    let (tools, defs) = setup();
    let response = completion(&[("c", "book", json!({"show": "Hamlet"}))]);
    let before = BOOKED.load(Ordering::SeqCst);
    let mut answer = defs.answer(&tools, &response).await.unwrap();
    {
        let waiting = answer.waiting_mut().next().unwrap();
        assert!(!waiting.is_confirmation());
        let Question::Form { message, schema } = waiting.question() else {
            panic!("a form question");
        };
        assert_eq!(message, "Seats for Hamlet?");
        assert_eq!(schema, &Seats::schema());
        waiting.fill(json!({"count": 3}).as_object().unwrap().clone());
    }
    let mut answer = defs.resume(&tools, answer).await;
    {
        let waiting = answer.waiting_mut().next().expect("the second question");
        assert_eq!(waiting.message(), "Pay 36 €?");
        assert!(waiting.is_confirmation());
        waiting.reply(Reply::accept());
    }
    let answer = defs.resume(&tools, answer).await;
    assert_eq!(
        answer.outcomes()[0].result,
        Ok(json!("3 seats for Hamlet, 36 €"))
    );
    assert_eq!(BOOKED.load(Ordering::SeqCst), before + 1);
}

#[tokio::test]
async fn a_filled_form_that_does_not_fit_is_a_failure_for_the_model() {
    let (tools, defs) = setup();
    let response = completion(&[("c", "book", json!({"show": "Lear"}))]);
    let mut answer = defs.answer(&tools, &response).await.unwrap();
    answer
        .waiting_mut()
        .for_each(|w| w.fill(json!({"count": 40}).as_object().unwrap().clone()));
    let answer = defs.resume(&tools, answer).await;
    assert!(!answer.is_waiting());
    let failure = answer.outcomes()[0].result.as_ref().unwrap_err();
    assert_eq!(failure.code(), "invalid_answer");
}

#[tokio::test]
async fn only_the_waiting_calls_run_again() {
    let (tools, defs) = setup();
    let response = completion(&[
        ("a", "lookup", json!({"id": 1})),
        ("b", "delete_note", json!({"id": 2})),
        ("c", "lookup", json!({"id": 3})),
    ]);
    let before = LOOKED_UP.load(Ordering::SeqCst);
    let mut answer = defs.answer(&tools, &response).await.unwrap();
    assert_eq!(LOOKED_UP.load(Ordering::SeqCst), before + 2);
    let waiting: Vec<_> = answer.waiting().map(|(o, _)| o.call.id).collect();
    assert_eq!(waiting, vec![Some("b")]);
    answer.waiting_mut().for_each(Waiting::approve);
    let answer = defs.resume(&tools, answer).await;
    assert_eq!(
        LOOKED_UP.load(Ordering::SeqCst),
        before + 2,
        "not run again"
    );
    let results: Vec<_> = answer.outcomes().iter().map(|o| o.result.clone()).collect();
    assert_eq!(
        results,
        vec![
            Ok(json!("note 1")),
            Ok(json!("note 2 deleted")),
            Ok(json!("note 3"))
        ]
    );
}

fn approve_note_4() -> Runtime {
    Runtime::new(toolset![delete_note, book]).with_approver(|question: Question| async move {
        Ok(match question {
            Question::Form { message, .. } if message == "Run delete_note with id = 4?" => {
                Reply::accept()
            }
            Question::Form { message, .. } if message.starts_with("Seats") => {
                Reply::accept_with(json!({"count": 2}).as_object().unwrap().clone())
            }
            Question::Form { message, .. } if message.starts_with("Pay") => Reply::accept(),
            _ => Reply::decline(),
        })
    })
}

#[tokio::test]
async fn a_runtime_puts_its_calls_questions_to_its_approver() {
    let runtime = approve_note_4();
    let done = runtime
        .call("delete_note", &json!({"id": 4}))
        .await
        .unwrap();
    assert_eq!(done.output, json!("note 4 deleted"));
    let refused = runtime
        .call("delete_note", &json!({"id": 5}))
        .await
        .unwrap_err();
    assert_eq!(refused.code(), "not_approved");
    let booked = runtime
        .call("book", &json!({"show": "Faust"}))
        .await
        .unwrap();
    assert_eq!(booked.output, json!("2 seats for Faust, 24 €"));
}

#[tokio::test]
async fn a_callers_own_asker_wins_over_the_approver() {
    use tool_executor::elicit::Asker;
    let runtime = approve_note_4();
    let options =
        CallOptions::new().with_extension(Asker::new(|_: Question| async { Ok(Reply::decline()) }));
    let refused = runtime
        .call_with("delete_note", &json!({"id": 4}), options)
        .await
        .unwrap_err();
    assert_eq!(refused.code(), "not_approved");
}

#[tokio::test]
async fn without_an_approver_a_runtime_call_cannot_ask() {
    let runtime = Runtime::new(toolset![delete_note]);
    let refused = runtime
        .call("delete_note", &json!({"id": 4}))
        .await
        .unwrap_err();
    assert_eq!(refused.code(), "elicitation_unsupported");
}

/// A hand-written executor whose one tool confirms; whether its spec says it asks is the
/// test's choice.
struct HandWritten {
    asks_user: bool,
}

impl tool_executor::ContextExecutor for HandWritten {
    fn dispatch<'a>(
        &'a self,
        _tool: &'a str,
        _params: &'a Value,
        ctx: ToolContext,
    ) -> tool_executor::tool::BoxFuture<'a, Result<tool_executor::ToolExecution, ToolFailure>> {
        Box::pin(async move {
            let yes = ctx.confirm("Go on?").await?;
            Ok(tool_executor::ToolExecution::output_only(json!(yes)))
        })
    }

    fn list_specs(&self) -> tool_executor::tool::SpecList {
        let spec = tool_executor::ToolSpec::new("go", "Goes on.", json!({"type": "object"}))
            .with_asks_user(self.asks_user);
        std::sync::Arc::from(vec![std::sync::Arc::new(spec)])
    }
}

/// Only tools whose spec says they may ask are deferred (`#[tool]` says so for tools that take
/// a context or confirm); another tool's question fails at once, as before.
#[tokio::test]
async fn only_tools_that_say_they_ask_are_deferred() {
    for asks_user in [false, true] {
        let tools = HandWritten { asks_user };
        let defs = Definitions::from_specs(&tools.specs(), Provider::OpenAiChat).unwrap();
        let response = completion(&[("c", "go", json!({}))]);
        let mut answer = defs.answer(&tools, &response).await.unwrap();
        if !asks_user {
            assert!(!answer.is_waiting());
            let failure = answer.outcomes()[0].result.as_ref().unwrap_err();
            assert_eq!(failure.code(), "elicitation_unsupported");
            continue;
        }
        answer.waiting_mut().for_each(Waiting::approve);
        let answer = defs.resume(&tools, answer).await;
        assert_eq!(answer.outcomes()[0].result, Ok(json!(true)));
    }
}
