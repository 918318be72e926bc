//! `#[derive(Form)]`: the schema a client is sent (form mode of MCP 2025-11-25 and
//! 2026-07-28, SEP-1034 defaults, SEP-1330 titled choices) and the decoding of its answer;
//! `ctx.elicit` over an application's own `Elicitor`.

use std::sync::{Arc, Mutex};

use serde_json::{Value, json};
use tool_executor::elicit::{Action, Answer, Asker, ElicitError, Elicitor, Form, Question, Reply};
use tool_executor::tool::BoxFuture;
use tool_executor::{ToolContext, ToolExecutor, ToolFailure, tool, toolset};

#[derive(Form, Debug, Clone, Copy, PartialEq)]
enum Size {
    /// Small
    S,
    /// Medium size.
    M,
    #[form(value = "large", title = "Large (+2 €)")]
    L,
}

#[derive(Form, Debug, Clone, Copy, PartialEq)]
enum Topping {
    Cheese,
    Olives,
}

/// Every field kind form mode has.
#[derive(Form, Debug, PartialEq)]
struct Order {
    /// Who the order is for.
    #[form(title = "Name", min_length = 1, max_length = 20)]
    name: String,
    #[form(format = "email")]
    email: String,
    #[form(format = "date")]
    deliver_on: Option<String>,
    /// How many pizzas.
    #[form(min = 1, max = 10, default = 1)]
    quantity: u8,
    #[form(min = 0.5, max = 2.5)]
    spice: Option<f64>,
    #[form(default = true)]
    napkins: bool,
    #[form(default = Size::M)]
    size: Size,
    #[form(min_items = 1, max_items = 2)]
    toppings: Vec<Topping>,
    /// Not a secret, though its name ends in `key`.
    #[form(not_secret)]
    sort_key: Option<i64>,
}

#[test]
fn the_schema_is_the_flat_form_mode_object() {
    let expected = json!({
        "type": "object",
        "properties": {
            "name": {
                "type": "string", "title": "Name", "description": "Who the order is for.",
                "minLength": 1, "maxLength": 20
            },
            "email": { "type": "string", "format": "email" },
            "deliver_on": { "type": "string", "format": "date" },
            "quantity": {
                "type": "integer", "description": "How many pizzas.",
                "minimum": 1, "maximum": 10, "default": 1
            },
            "spice": { "type": "number", "minimum": 0.5, "maximum": 2.5 },
            "napkins": { "type": "boolean", "default": true },
            "size": {
                "type": "string",
                "oneOf": [
                    { "const": "S", "title": "Small" },
                    { "const": "M", "title": "Medium size" },
                    { "const": "large", "title": "Large (+2 €)" }
                ],
                "default": "M"
            },
            "toppings": {
                "type": "array",
                "items": { "anyOf": [
                    { "const": "Cheese", "title": "Cheese" },
                    { "const": "Olives", "title": "Olives" }
                ] },
                "minItems": 1, "maxItems": 2
            },
            "sort_key": {
                "type": "integer",
                "description": "Not a secret, though its name ends in `key`."
            }
        },
        "required": ["name", "email", "toppings"]
    });
    assert_eq!(Order::schema(), expected);
}

fn decode(content: &Value) -> Result<Order, String> {
    Order::decode(content.as_object().expect("an object")).map_err(|e| e.to_string())
}

#[test]
fn an_answer_decodes_with_defaults_for_what_it_leaves_out() {
    let order = decode(&json!({
        "name": "Ada", "email": "ada@example.com", "toppings": ["Olives", "Cheese"],
        "quantity": 3.0, "spice": null
    }))
    .unwrap();
    assert_eq!(
        order,
        Order {
            name: "Ada".into(),
            email: "ada@example.com".into(),
            deliver_on: None,
            quantity: 3,
            spice: None,
            napkins: true,
            size: Size::M,
            toppings: vec![Topping::Olives, Topping::Cheese],
            sort_key: None,
        }
    );
}

#[test]
fn an_answer_outside_the_form_names_the_field_and_the_rule() {
    let base = json!({ "name": "Ada", "email": "a@b.c", "toppings": ["Cheese"] });
    let with = |key: &str, value: Value| {
        let mut content = base.clone();
        content[key] = value;
        decode(&content).unwrap_err()
    };
    assert_eq!(
        decode(&json!({ "email": "a@b.c", "toppings": [] })).unwrap_err(),
        "field `name`: the answer has no value for it"
    );
    assert_eq!(
        with("name", json!("")),
        "field `name`: expected at least 1 characters, got 0"
    );
    assert_eq!(
        with("quantity", json!(11)),
        "field `quantity`: expected at most 10, got 11"
    );
    assert_eq!(
        with("quantity", json!(2.5)),
        "field `quantity`: expected an integer, got 2.5"
    );
    assert_eq!(
        with("napkins", json!("yes")),
        "field `napkins`: expected a boolean, got a string"
    );
    assert_eq!(
        with("size", json!("XL")),
        "field `size`: `XL` is not one of the choices: `S`, `M`, `large`"
    );
    assert_eq!(
        with("toppings", json!(["Cheese", "Olives", "Cheese"])),
        "field `toppings`: expected at most 2 choices, got 3"
    );
    assert_eq!(
        with("toppings", json!(["Ham"])),
        "field `toppings`: `Ham` is not one of the choices: `Cheese`, `Olives`"
    );
}

/// An elicitor that replies from a script and records the questions it was asked.
#[derive(Clone, Default)]
struct Scripted {
    replies: Arc<Mutex<Vec<Result<Reply, ElicitError>>>>,
    asked: Arc<Mutex<Vec<Question>>>,
}

impl Scripted {
    fn new(replies: Vec<Result<Reply, ElicitError>>) -> Self {
        Self {
            replies: Arc::new(Mutex::new(replies)),
            asked: Arc::default(),
        }
    }
}

impl Elicitor for Scripted {
    fn ask(&self, question: Question) -> BoxFuture<'static, Result<Reply, ElicitError>> {
        self.asked.lock().unwrap().push(question);
        let reply = self.replies.lock().unwrap().remove(0);
        Box::pin(async move { reply })
    }
}

fn accept(content: Value) -> Result<Reply, ElicitError> {
    let Value::Object(content) = content else {
        return Err(ElicitError::Failed("a test answers with objects".into()));
    };
    Ok(Reply {
        action: Action::Accept,
        content: Some(content),
    })
}

fn action(action: Action) -> Reply {
    Reply {
        action,
        content: None,
    }
}

#[derive(Form)]
struct Seats {
    #[form(min = 1, max = 8)]
    count: u8,
}

/// Books seats for a show, asking how many.
#[tool]
async fn book(ctx: &ToolContext, show: String) -> Result<String, ToolFailure> {
    Ok(
        match ctx
            .elicit::<Seats>(format!("How many seats for {show}?"))
            .await?
        {
            Answer::Accepted(seats) => format!("{} seats", seats.count),
            Answer::Declined => "declined".into(),
            Answer::Cancelled => "cancelled".into(),
        },
    )
}

/// Wipes everything once the user confirms.
#[tool]
fn wipe(ctx: &ToolContext) -> Result<String, ToolFailure> {
    Ok(if ctx.confirm_blocking("Wipe everything?")? {
        "wiped".into()
    } else {
        "kept".into()
    })
}

async fn run(asker: Option<Scripted>, tool: &str, args: Value) -> Result<Value, ToolFailure> {
    let set = toolset![book, wipe];
    let ctx = match asker {
        Some(asker) => ToolContext::new().with_extension(Asker::new(asker)),
        None => ToolContext::new(),
    };
    set.execute_with_context(tool, &args, ctx)
        .await
        .map(|execution| execution.output)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tool_gets_the_typed_answer_or_the_users_refusal() {
    let asker = Scripted::new(vec![
        accept(json!({ "count": 3 })),
        Ok(action(Action::Decline)),
        Ok(action(Action::Cancel)),
    ]);
    let args = json!({ "show": "Hamlet" });
    assert_eq!(
        run(Some(asker.clone()), "book", args.clone())
            .await
            .unwrap(),
        json!("3 seats")
    );
    assert_eq!(
        run(Some(asker.clone()), "book", args.clone())
            .await
            .unwrap(),
        json!("declined")
    );
    assert_eq!(
        run(Some(asker.clone()), "book", args).await.unwrap(),
        json!("cancelled")
    );
    let questions = asker.asked.lock().unwrap();
    assert_eq!(
        questions[0].to_params(),
        json!({
            "mode": "form",
            "message": "How many seats for Hamlet?",
            "requestedSchema": {
                "type": "object",
                "properties": { "count": { "type": "integer", "minimum": 1, "maximum": 8 } },
                "required": ["count"]
            }
        })
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_answer_outside_the_form_fails_the_call_with_invalid_answer() {
    let asker = Scripted::new(vec![accept(json!({ "count": 9 }))]);
    let failure = run(Some(asker), "book", json!({ "show": "Hamlet" }))
        .await
        .unwrap_err();
    assert_eq!(failure.code(), "invalid_answer");
    assert!(
        failure
            .message()
            .contains("field `count`: expected at most 8, got 9"),
        "{failure}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_nothing_can_ask_fails_at_once_with_elicitation_unsupported() {
    let failure = run(None, "book", json!({ "show": "Hamlet" }))
        .await
        .unwrap_err();
    assert_eq!(failure.code(), "elicitation_unsupported");
    let failure = run(None, "wipe", json!({})).await.unwrap_err();
    assert_eq!(failure.code(), "elicitation_unsupported");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sync_tool_confirms_on_its_thread() {
    let asker = Scripted::new(vec![
        Ok(action(Action::Accept)),
        Ok(action(Action::Decline)),
    ]);
    assert_eq!(
        run(Some(asker.clone()), "wipe", json!({})).await.unwrap(),
        json!("wiped")
    );
    assert_eq!(
        run(Some(asker.clone()), "wipe", json!({})).await.unwrap(),
        json!("kept")
    );
    assert_eq!(
        asker.asked.lock().unwrap()[0].to_params()["requestedSchema"],
        json!({ "type": "object", "properties": {} })
    );
}

/// A transport that takes the question with the call's answer (MCP 2026-07-28) drops the
/// call: the body never runs past the question in that attempt.
#[tokio::test(start_paused = true)]
async fn a_suspended_question_never_resumes_the_body() {
    let asker = Scripted::new(vec![Err(ElicitError::Suspended)]);
    let ctx = ToolContext::new().with_extension(Asker::new(asker));
    let question = ctx.elicit::<Seats>("How many?");
    let waited = tokio::time::timeout(std::time::Duration::from_secs(3600), question).await;
    assert!(
        waited.is_err(),
        "the body stays parked until the transport drops it"
    );
}

/// Times `delete_note`'s and `purge`'s bodies ran.
static BODIES: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// Deletes a note, once the user approves.
#[tool(confirm, destructive)]
async fn delete_note(id: u32, force: Option<bool>) -> String {
    tokio::task::yield_now().await;
    BODIES.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    format!("deleted {id} (force: {force:?})")
}

/// Purges everything, once the user approves (a sync tool).
#[tool(confirm)]
fn purge(all: bool) -> String {
    BODIES.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    format!("purged (all: {all})")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_confirm_tool_runs_only_once_approved_with_a_summary_of_its_arguments() {
    use std::sync::atomic::Ordering;
    let set = toolset![delete_note, purge];
    let asker = Scripted::new(vec![
        Ok(action(Action::Accept)),
        Ok(action(Action::Decline)),
        Ok(action(Action::Accept)),
    ]);
    let with = |asker: &Scripted| ToolContext::new().with_extension(Asker::new(asker.clone()));
    let before = BODIES.load(Ordering::SeqCst);

    let args = json!({ "id": 4, "force": true });
    let out = set
        .execute_with_context("delete_note", &args, with(&asker))
        .await
        .unwrap();
    assert_eq!(out.output, json!("deleted 4 (force: Some(true))"));
    let refused = set
        .execute_with_context("delete_note", &json!({ "id": 5 }), with(&asker))
        .await
        .unwrap_err();
    assert_eq!(refused.code(), "not_approved");
    let out = set
        .execute_with_context("purge", &json!({ "all": true }), with(&asker))
        .await
        .unwrap();
    assert_eq!(out.output, json!("purged (all: true)"));
    assert_eq!(
        BODIES.load(Ordering::SeqCst),
        before + 2,
        "the declined body never ran"
    );

    let messages: Vec<Value> = asker
        .asked
        .lock()
        .unwrap()
        .iter()
        .map(|q| q.to_params()["message"].clone())
        .collect();
    assert_eq!(
        messages,
        [
            json!("Run delete_note with force = true, id = 4?"),
            json!("Run delete_note with id = 5?"),
            json!("Run purge with all = true?"),
        ]
    );

    let unasked = set
        .execute_with_context("delete_note", &json!({ "id": 6 }), ToolContext::new())
        .await
        .unwrap_err();
    assert_eq!(unasked.code(), "elicitation_unsupported");
    assert_eq!(BODIES.load(Ordering::SeqCst), before + 2);
}

/// SEP-1330's five ways of writing choices, as the MCP conformance suite's
/// `test_elicitation_sep1330_enums` asks for them (v0.1.16): untitled (`enum`), titled
/// (`oneOf`), legacy (`enum` + `enumNames`), and the two multi-selects.
#[derive(Form, Debug, PartialEq)]
#[form(untitled)]
enum Plain {
    #[form(value = "option1")]
    One,
    #[form(value = "option2")]
    Two,
    #[form(value = "option3")]
    Three,
}

#[derive(Form, Debug, PartialEq)]
enum Titled {
    #[form(value = "value1", title = "First Option")]
    One,
    #[form(value = "value2", title = "Second Option")]
    Two,
}

#[derive(Form, Debug, PartialEq)]
#[form(enum_names)]
enum Legacy {
    #[form(value = "opt1", title = "Option One")]
    One,
    #[form(value = "opt2", title = "Option Two")]
    Two,
}

#[derive(Form, Debug, PartialEq)]
#[allow(clippy::struct_field_names)] // the suite's field names
struct Sep1330 {
    #[form(rename = "untitledSingle")]
    untitled_single: Plain,
    #[form(rename = "titledSingle")]
    titled_single: Titled,
    #[form(rename = "legacyEnum")]
    legacy_enum: Legacy,
    #[form(rename = "untitledMulti")]
    untitled_multi: Vec<Plain>,
    #[form(rename = "titledMulti")]
    titled_multi: Vec<Titled>,
}

#[test]
fn every_sep1330_choice_style_has_the_conformance_suites_shape() {
    let schema = Sep1330::schema();
    let props = &schema["properties"];
    let plain = json!(["option1", "option2", "option3"]);
    assert_eq!(
        props["untitledSingle"],
        json!({ "type": "string", "enum": plain })
    );
    assert_eq!(
        props["titledSingle"],
        json!({ "type": "string", "oneOf": [
            { "const": "value1", "title": "First Option" },
            { "const": "value2", "title": "Second Option" }
        ] })
    );
    assert_eq!(
        props["legacyEnum"],
        json!({ "type": "string", "enum": ["opt1", "opt2"], "enumNames": ["Option One", "Option Two"] })
    );
    assert_eq!(
        props["untitledMulti"],
        json!({ "type": "array", "items": { "type": "string", "enum": plain } })
    );
    assert_eq!(
        props["titledMulti"]["items"]["anyOf"][1],
        json!({ "const": "value2", "title": "Second Option" })
    );
    let answer = json!({
        "untitledSingle": "option1", "titledSingle": "value1", "legacyEnum": "opt1",
        "untitledMulti": ["option1", "option2"], "titledMulti": ["value1", "value2"]
    });
    assert_eq!(
        Sep1330::decode(answer.as_object().unwrap()).unwrap(),
        Sep1330 {
            untitled_single: Plain::One,
            titled_single: Titled::One,
            legacy_enum: Legacy::One,
            untitled_multi: vec![Plain::One, Plain::Two],
            titled_multi: vec![Titled::One, Titled::Two],
        }
    );
    let wrong = json!({
        "untitledSingle": "option9", "titledSingle": "value1", "legacyEnum": "opt1",
        "untitledMulti": [], "titledMulti": []
    });
    assert_eq!(
        Sep1330::decode(wrong.as_object().unwrap())
            .unwrap_err()
            .to_string(),
        "field `untitledSingle`: `option9` is not one of the choices: `option1`, `option2`, `option3`"
    );
}

/// SEP-1034's defaults on every primitive, as the conformance suite's
/// `test_elicitation_sep1034_defaults` asks for them.
#[derive(Form)]
struct Sep1034 {
    #[form(default = "John Doe")]
    name: String,
    #[form(default = 30)]
    age: i64,
    #[form(default = 95.5)]
    score: f64,
    #[form(default = Status::Active)]
    status: Status,
    #[form(default = true)]
    verified: bool,
}

#[derive(Form, Debug, PartialEq)]
#[form(untitled)]
enum Status {
    #[form(value = "active")]
    Active,
    #[form(value = "inactive")]
    Inactive,
    #[form(value = "pending")]
    Pending,
}

#[test]
fn every_sep1034_default_has_the_conformance_suites_shape() {
    assert_eq!(
        Sep1034::schema(),
        json!({ "type": "object", "properties": {
            "name": { "type": "string", "default": "John Doe" },
            "age": { "type": "integer", "default": 30 },
            "score": { "type": "number", "default": 95.5 },
            "status": { "type": "string", "enum": ["active", "inactive", "pending"], "default": "active" },
            "verified": { "type": "boolean", "default": true }
        } })
    );
    let filled = Sep1034::decode(&serde_json::Map::new()).unwrap();
    assert_eq!(
        (
            filled.name.as_str(),
            filled.age,
            filled.score,
            filled.status,
            filled.verified
        ),
        ("John Doe", 30, 95.5, Status::Active, true),
        "an empty answer takes every default"
    );
}

/// In a provider loop the application answers questions itself: an `Asker` in the
/// extensions it answers with (a prompt in its own UI), the same `#[tool(confirm)]` tool.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_provider_loop_answers_questions_through_the_asker_it_was_given() {
    use tool_executor::provider::Provider;
    use tool_executor::tool::Extensions;

    let tools = toolset![delete_note];
    let defs = tools.definitions(Provider::OpenAiChat).unwrap();
    let response = json!({"choices": [{"message": {"tool_calls": [{
        "id": "call_1", "type": "function",
        "function": {"name": "delete_note", "arguments": "{\"id\": 9}"}
    }]}}]});
    let asker = Scripted::new(vec![Ok(action(Action::Decline))]);
    let mut extensions = Extensions::new();
    extensions.insert(Asker::new(asker.clone()));
    let answer = defs
        .answer_with(&tools, &response, &extensions)
        .await
        .unwrap();
    let refused = answer.outcomes()[0].result.as_ref().unwrap_err();
    assert_eq!(refused.code(), "not_approved");
    assert_eq!(
        asker.asked.lock().unwrap()[0].to_params()["message"],
        "Run delete_note with id = 9?"
    );
}
