//! A `ToolAgent`'s tools ask their user over A2A: a question parks the task at
//! `input-required` (the form in a data part of our extension, an approval as the server
//! crate's approval extension), and the caller's next message on the task resumes the tool
//! with the answer, on any replica that shares the task store.
#![cfg(feature = "a2a")]

mod a2a_support;
#[cfg(all(
    feature = "a2a-client",
    feature = "mcp-http",
    feature = "request-state"
))]
mod http_wire;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use a2a_support::rpc;
use serde_json::{Value, json};
use tool_executor::agent::server::store::InMemoryTaskStore;
use tool_executor::agent::server::store::TaskStore;
use tool_executor::agent::{
    AgentServer, ELICITATION_EXTENSION, PENDING_METADATA, RunningAgent, ToolAgent, approval_digest,
};
use tool_executor::elicit::{Answer, Form};
use tool_executor::prelude::*;

const APPROVAL_URI: &str = "https://a2a-rust.com/extensions/approval/v1";
const APPROVAL_KEY: &str = "a2a-rust.com/approval";

/// Where to sit.
#[derive(Form, Debug, Clone, Copy)]
enum Seat {
    /// By the window
    Window,
    /// On the aisle
    Aisle,
}

/// What `book` asks.
#[derive(Form)]
struct Booking {
    /// How many seats.
    #[form(min = 1, max = 8, default = 2)]
    count: u8,
    seat: Seat,
}

/// How often `book`'s body started: a question re-enters it.
static BOOK_RUNS: AtomicUsize = AtomicUsize::new(0);

/// Books seats for a show, asking how many and where.
#[tool]
async fn book(ctx: &ToolContext, show: String) -> Result<String, ToolFailure> {
    BOOK_RUNS.fetch_add(1, Ordering::SeqCst);
    Ok(
        match ctx.elicit::<Booking>(format!("Seats for {show}?")).await? {
            Answer::Accepted(b) => format!("{} {:?} seats for {show}", b.count, b.seat),
            Answer::Declined => "declined".into(),
            Answer::Cancelled => "cancelled".into(),
        },
    )
}

/// How many notes `delete_note` deleted.
static DELETED: AtomicUsize = AtomicUsize::new(0);

/// Deletes a note, once the user approves.
#[tool(confirm, destructive)]
fn delete_note(
    /// The note to delete.
    id: u32,
) -> String {
    DELETED.fetch_add(1, Ordering::SeqCst);
    format!("deleted note {id}")
}

/// Asks twice: a name, then a yes.
#[tool]
async fn greet(ctx: &ToolContext) -> Result<String, ToolFailure> {
    #[derive(Form)]
    struct Name {
        name: String,
    }
    let name = ctx.elicit::<Name>("Your name?").await?.or_stop()?.name;
    let loud = ctx.confirm(format!("Shout at {name}?")).await?;
    Ok(if loud {
        format!("HELLO {}", name.to_uppercase())
    } else {
        format!("hello {name}")
    })
}

fn agent() -> ToolAgent {
    ToolAgent::new(toolset![book, delete_note, greet]).with_name("Asking")
}

async fn server() -> RunningAgent {
    AgentServer::bind("127.0.0.1:0", agent())
        .await
        .expect("bind")
        .spawn()
}

/// A replica keeping its tasks in `store`.
async fn replica(store: Arc<InMemoryTaskStore>) -> RunningAgent {
    let store: Arc<dyn TaskStore> = store;
    AgentServer::builder()
        .configure(move |b| b.with_task_store_arc(store))
        .bind("127.0.0.1:0", agent())
        .await
        .expect("bind")
        .spawn()
}

fn call(tool: &str, arguments: &Value) -> Value {
    json!({
        "message": {
            "messageId": uuid(),
            "role": "ROLE_USER",
            "parts": [{ "data": { "tool": tool, "arguments": arguments } }],
        }
    })
}

/// A continuation of `task` with `parts` and message `metadata`.
fn answer(task: &Value, parts: &Value, metadata: Option<Value>) -> Value {
    let mut message = json!({
        "messageId": uuid(),
        "role": "ROLE_USER",
        "taskId": task["id"],
        "contextId": task["contextId"],
        "parts": parts,
    });
    if let Some(metadata) = metadata {
        message["metadata"] = metadata;
        message["extensions"] = json!([APPROVAL_URI]);
    }
    json!({ "message": message })
}

fn uuid() -> String {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    format!(
        "m-{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    )
}

/// The status message without what changes on every run (its id, the task's ids).
fn question(task: &Value) -> Value {
    let mut message = task["status"]["message"].clone();
    for key in ["messageId", "taskId", "contextId"] {
        message.as_object_mut().expect("a message").remove(key);
    }
    message
}

async fn send(addr: std::net::SocketAddr, params: Value) -> Value {
    rpc(addr, "SendMessage", params).await["task"].clone()
}

fn booking_question(answers: &Value) -> Value {
    let params = json!({
        "mode": "form",
        "message": "Seats for Hamlet?",
        "requestedSchema": {
            "type": "object",
            "properties": {
                "count": {
                    "type": "integer",
                    "description": "How many seats.",
                    "minimum": 1,
                    "maximum": 8,
                    "default": 2
                },
                "seat": {
                    "type": "string",
                    "oneOf": [
                        {"const": "Window", "title": "By the window"},
                        {"const": "Aisle", "title": "On the aisle"}
                    ]
                }
            },
            // `count` has a default: not required.
            "required": ["seat"]
        }
    });
    json!({
        "role": "ROLE_AGENT",
        "parts": [
            {"text": "Seats for Hamlet?"},
            {"data": params, "metadata": {ELICITATION_EXTENSION: "q0"}}
        ],
        "extensions": [ELICITATION_EXTENSION],
        "metadata": {
            PENDING_METADATA: {
                "tool": "book",
                "arguments": {"show": "Hamlet"},
                "attempt": 1,
                "idempotencyKey": "the-key",
                "answers": answers,
                "asked": "q0",
                "question": params
            }
        }
    })
}

/// The idempotency key is the first message's id: pinned to "the-key" for comparison.
fn pin_key(mut message: Value) -> Value {
    let pending = &mut message["metadata"][PENDING_METADATA];
    assert!(pending["idempotencyKey"].is_string(), "{message}");
    pending["idempotencyKey"] = json!("the-key");
    message
}

#[tokio::test]
async fn a_form_question_parks_the_task_and_the_answer_resumes_the_tool() {
    let server = server().await;
    let addr = server.local_addr();
    let runs = BOOK_RUNS.load(Ordering::SeqCst);
    let task = send(addr, call("book", &json!({"show": "Hamlet"}))).await;
    assert_eq!(
        task["status"]["state"], "TASK_STATE_INPUT_REQUIRED",
        "{task}"
    );
    assert_eq!(pin_key(question(&task)), booking_question(&json!({})));

    let reply =
        json!([{ "data": { "action": "accept", "content": { "count": 3, "seat": "Aisle" } } }]);
    let done = send(addr, answer(&task, &reply, None)).await;
    assert_eq!(done["id"], task["id"]);
    assert_eq!(done["status"]["state"], "TASK_STATE_COMPLETED", "{done}");
    assert_eq!(
        done["artifacts"][0]["parts"],
        json!([{ "data": "3 Aisle seats for Hamlet" }])
    );
    // The body ran twice: once to ask, once with the answer.
    assert!(BOOK_RUNS.load(Ordering::SeqCst) >= runs + 2);
}

#[tokio::test]
async fn a_declined_question_resumes_the_tool_with_declined() {
    let server = server().await;
    let addr = server.local_addr();
    let task = send(addr, call("book", &json!({"show": "Hamlet"}))).await;
    let done = send(
        addr,
        answer(&task, &json!([{ "data": { "action": "decline" } }]), None),
    )
    .await;
    assert_eq!(done["status"]["state"], "TASK_STATE_COMPLETED", "{done}");
    assert_eq!(
        done["artifacts"][0]["parts"],
        json!([{ "data": "declined" }])
    );
}

#[tokio::test]
async fn a_message_that_does_not_answer_keeps_the_question_and_says_why() {
    let server = server().await;
    let addr = server.local_addr();
    let task = send(addr, call("book", &json!({"show": "Hamlet"}))).await;

    let text = send(
        addr,
        answer(&task, &json!([{ "text": "three on the aisle" }]), None),
    )
    .await;
    assert_eq!(
        text["status"]["state"], "TASK_STATE_INPUT_REQUIRED",
        "{text}"
    );
    let mut expected = booking_question(&json!({}));
    expected["parts"].as_array_mut().unwrap().insert(
        0,
        json!({"text": "Not answered: the message has no data part; this task waits for an \
                        answer to \"Seats for Hamlet?\": continue it with a data part \
                        {\"action\": \"accept\" | \"decline\" | \"cancel\", \"content\": {…}}"}),
    );
    assert_eq!(pin_key(question(&text)), expected);

    let wrong = send(
        addr,
        answer(&task, &json!([{ "data": { "count": 3 } }]), None),
    )
    .await;
    assert_eq!(
        wrong["status"]["state"], "TASK_STATE_INPUT_REQUIRED",
        "{wrong}"
    );
    assert_eq!(
        wrong["status"]["message"]["parts"][0]["text"],
        "Not answered: asking the user failed: the client's answer is not an ElicitResult \
         (`action` must be `accept`, `decline` or `cancel`): {\"count\":3}; this task waits for \
         an answer to \"Seats for Hamlet?\": continue it with a data part {\"action\": \
         \"accept\" | \"decline\" | \"cancel\", \"content\": {…}}"
    );

    // The question still stands: a real answer resumes the tool.
    let reply =
        json!([{ "data": { "action": "accept", "content": { "count": 1, "seat": "Window" } } }]);
    let done = send(addr, answer(&task, &reply, None)).await;
    assert_eq!(
        done["artifacts"][0]["parts"],
        json!([{ "data": "1 Window seats for Hamlet" }])
    );
}

#[tokio::test]
async fn an_answer_outside_the_form_fails_the_call_with_invalid_answer() {
    let server = server().await;
    let addr = server.local_addr();
    let task = send(addr, call("book", &json!({"show": "Hamlet"}))).await;
    let reply =
        json!([{ "data": { "action": "accept", "content": { "count": 9, "seat": "Aisle" } } }]);
    let done = send(addr, answer(&task, &reply, None)).await;
    assert_eq!(done["status"]["state"], "TASK_STATE_FAILED", "{done}");
    assert_eq!(
        done["status"]["message"]["metadata"]["code"],
        "invalid_answer"
    );
}

#[tokio::test]
async fn another_replica_sharing_the_store_resumes_the_question() {
    let store = Arc::new(InMemoryTaskStore::new());
    let first = replica(Arc::clone(&store)).await;
    let second = replica(store).await;
    let task = send(first.local_addr(), call("book", &json!({"show": "Hamlet"}))).await;
    assert_eq!(
        task["status"]["state"], "TASK_STATE_INPUT_REQUIRED",
        "{task}"
    );
    let reply =
        json!([{ "data": { "action": "accept", "content": { "count": 2, "seat": "Window" } } }]);
    let done = send(second.local_addr(), answer(&task, &reply, None)).await;
    assert_eq!(done["status"]["state"], "TASK_STATE_COMPLETED", "{done}");
    assert_eq!(
        done["artifacts"][0]["parts"],
        json!([{ "data": "2 Window seats for Hamlet" }])
    );
}

#[tokio::test]
async fn two_questions_take_two_rounds_and_keep_the_first_answer() {
    let server = server().await;
    let addr = server.local_addr();
    let task = send(addr, call("greet", &json!({}))).await;
    let name = json!([{ "data": { "action": "accept", "content": { "name": "ada" } } }]);
    let second = send(addr, answer(&task, &name, None)).await;
    assert_eq!(
        second["status"]["state"], "TASK_STATE_INPUT_REQUIRED",
        "{second}"
    );
    let request = second["status"]["message"]["metadata"][APPROVAL_KEY].clone();
    assert_eq!(request["summary"], "Shout at ada?");
    assert_eq!(
        request["digest"],
        approval_digest("greet", &json!({}), "Shout at ada?")
    );
    assert_eq!(
        second["status"]["message"]["metadata"][PENDING_METADATA]["answers"],
        json!({ "q0": { "action": "accept", "content": { "name": "ada" } } })
    );
    let decision = json!({ APPROVAL_KEY: {
        "requestId": request["requestId"], "decision": "approve", "digest": request["digest"]
    }});
    let done = send(
        addr,
        answer(&task, &json!([{ "text": "yes" }]), Some(decision)),
    )
    .await;
    assert_eq!(done["status"]["state"], "TASK_STATE_COMPLETED", "{done}");
    assert_eq!(
        done["artifacts"][0]["parts"],
        json!([{ "data": "HELLO ADA" }])
    );
}

#[tokio::test]
async fn a_confirm_tool_asks_for_approval_bound_to_its_exact_arguments() {
    let server = server().await;
    let addr = server.local_addr();
    let deleted = DELETED.load(Ordering::SeqCst);
    let task = send(addr, call("delete_note", &json!({"id": 4}))).await;
    assert_eq!(
        task["status"]["state"], "TASK_STATE_INPUT_REQUIRED",
        "{task}"
    );
    let message = question(&task);
    let request = message["metadata"][APPROVAL_KEY].clone();
    let digest = approval_digest(
        "delete_note",
        &json!({"id": 4}),
        "Run delete_note with id = 4?",
    );
    assert_eq!(
        request,
        json!({
            "requestId": request["requestId"],
            "summary": "Run delete_note with id = 4?",
            "digest": digest,
        })
    );
    assert!(
        digest.starts_with("sha256:") && digest.len() == 7 + 64,
        "{digest}"
    );
    assert_eq!(
        message["parts"],
        json!([{ "text": "Run delete_note with id = 4?" }])
    );
    assert_eq!(message["extensions"], json!([APPROVAL_URI]));

    // An approval of other arguments (note 5) is refused: the tool does not run.
    let other = approval_digest(
        "delete_note",
        &json!({"id": 5}),
        "Run delete_note with id = 5?",
    );
    let forged = json!({ APPROVAL_KEY: {
        "requestId": request["requestId"], "decision": "approve", "digest": other
    }});
    let refused = send(
        addr,
        answer(&task, &json!([{ "text": "ok" }]), Some(forged)),
    )
    .await;
    assert_eq!(
        refused["status"]["state"], "TASK_STATE_INPUT_REQUIRED",
        "{refused}"
    );
    assert_eq!(
        refused["status"]["message"]["parts"][0]["text"],
        "Not answered: the decision's digest does not match the pending request: the approver \
         was shown a different action"
    );
    assert_eq!(
        refused["status"]["message"]["metadata"][APPROVAL_KEY],
        request
    );
    assert_eq!(DELETED.load(Ordering::SeqCst), deleted);

    // A decision for another request id is refused too.
    let stale = json!({ APPROVAL_KEY: {
        "requestId": "old", "decision": "approve", "digest": digest
    }});
    let refused = send(addr, answer(&task, &json!([{ "text": "ok" }]), Some(stale))).await;
    assert_eq!(
        refused["status"]["message"]["parts"][0]["text"],
        format!(
            "Not answered: the decision answers approval request \"old\", but {} is pending",
            request["requestId"]
        )
    );

    let approve = json!({ APPROVAL_KEY: {
        "requestId": request["requestId"], "decision": "approve", "digest": digest
    }});
    let done = send(
        addr,
        answer(&task, &json!([{ "text": "ok" }]), Some(approve)),
    )
    .await;
    assert_eq!(done["status"]["state"], "TASK_STATE_COMPLETED", "{done}");
    assert_eq!(
        done["artifacts"][0]["parts"],
        json!([{ "data": "deleted note 4" }])
    );
}

#[tokio::test]
async fn a_denied_approval_fails_the_call_not_approved_without_running_it() {
    let server = server().await;
    let addr = server.local_addr();
    let task = send(addr, call("delete_note", &json!({"id": 7}))).await;
    let request = task["status"]["message"]["metadata"][APPROVAL_KEY].clone();
    let deny = json!({ APPROVAL_KEY: {
        "requestId": request["requestId"], "decision": "deny", "digest": request["digest"]
    }});
    let done = send(addr, answer(&task, &json!([{ "text": "no" }]), Some(deny))).await;
    assert_eq!(done["status"]["state"], "TASK_STATE_FAILED", "{done}");
    assert_eq!(
        done["status"]["message"]["metadata"]["code"],
        "not_approved"
    );
    assert_eq!(
        done["status"]["message"]["parts"][0]["text"],
        "the user did not approve this call of `delete_note`"
    );
}

#[tokio::test]
async fn a_message_without_a_decision_keeps_the_approval_pending() {
    let server = server().await;
    let addr = server.local_addr();
    let task = send(addr, call("delete_note", &json!({"id": 8}))).await;
    let request = task["status"]["message"]["metadata"][APPROVAL_KEY].clone();
    let bare = send(
        addr,
        answer(&task, &json!([{ "data": { "action": "accept" } }]), None),
    )
    .await;
    assert_eq!(
        bare["status"]["state"], "TASK_STATE_INPUT_REQUIRED",
        "{bare}"
    );
    assert_eq!(
        bare["status"]["message"]["parts"][0]["text"],
        format!(
            "Not answered: this task waits for an approval: continue it with an ApprovalDecision \
             {{requestId: {}, decision: \"approve\" | \"deny\", digest}} in the message \
             metadata `a2a-rust.com/approval`",
            request["requestId"]
        )
    );
}

/// `A2aToolExecutor` relays an agent's question to its own caller (`ctx.ask` on the calling
/// context) and answers the parked task with the reply, so a question travels MCP client ←
/// our MCP server ← `A2aToolExecutor` ← `ToolAgent`.
#[cfg(feature = "a2a-client")]
mod relay {
    use std::sync::Mutex;

    use tool_executor::agent::A2aToolExecutor;
    use tool_executor::elicit::{Action, Asker, ElicitError, Question, Reply};
    use tool_executor::tool::BoxFuture;

    use super::*;

    /// An asker that records each question and answers with `reply`.
    fn asker(reply: Reply) -> (Asker, Arc<Mutex<Vec<Question>>>) {
        let asked = Arc::new(Mutex::new(Vec::new()));
        let seen = Arc::clone(&asked);
        let ask = move |question: Question| -> BoxFuture<'static, Result<Reply, ElicitError>> {
            seen.lock().unwrap().push(question);
            let reply = reply.clone();
            Box::pin(async move { Ok(reply) })
        };
        (Asker::new(ask), asked)
    }

    fn accept(content: &Value) -> Reply {
        Reply {
            action: Action::Accept,
            content: content.as_object().cloned(),
        }
    }

    #[tokio::test]
    async fn a_form_question_goes_to_the_callers_asker_and_the_answer_back_to_the_task() {
        let server = server().await;
        let tools = A2aToolExecutor::connect(server.url())
            .await
            .expect("connect");
        let (answerer, asked) = asker(accept(&json!({"count": 3, "seat": "Aisle"})));
        let out = tools
            .execute_with_context(
                "book",
                &json!({"show": "Hamlet"}),
                ToolContext::new().with_extension(answerer),
            )
            .await
            .expect("booked");
        assert_eq!(out.output, json!("3 Aisle seats for Hamlet"));
        assert_eq!(
            *asked.lock().unwrap(),
            vec![Question::Form {
                message: "Seats for Hamlet?".into(),
                schema: Booking::schema(),
            }]
        );
    }

    #[tokio::test]
    async fn an_approval_is_relayed_as_a_confirm_and_answered_with_the_requests_digest() {
        let server = server().await;
        let tools = A2aToolExecutor::connect(server.url())
            .await
            .expect("connect");
        let (yes, asked) = asker(accept(&json!({})));
        let out = tools
            .execute_with_context(
                "delete_note",
                &json!({"id": 12}),
                ToolContext::new().with_extension(yes),
            )
            .await
            .expect("approved");
        assert_eq!(out.output, json!("deleted note 12"));
        assert_eq!(
            *asked.lock().unwrap(),
            vec![Question::Form {
                message: "Run delete_note with id = 12?".into(),
                schema: json!({"type": "object", "properties": {}}),
            }]
        );

        let (no, _) = asker(Reply {
            action: Action::Decline,
            content: None,
        });
        let failure = tools
            .execute_with_context(
                "delete_note",
                &json!({"id": 13}),
                ToolContext::new().with_extension(no),
            )
            .await
            .expect_err("denied");
        assert_eq!(failure.code(), "not_approved");
        assert_eq!(
            failure.message(),
            "the user did not approve this call of `delete_note`"
        );
    }

    #[tokio::test]
    async fn two_questions_are_relayed_in_turn() {
        let server = server().await;
        let tools = A2aToolExecutor::connect(server.url())
            .await
            .expect("connect");
        let (answerer, asked) = asker(accept(&json!({"name": "ada"})));
        let out = tools
            .execute_with_context(
                "greet",
                &json!({}),
                ToolContext::new().with_extension(answerer),
            )
            .await
            .expect("greeted");
        assert_eq!(out.output, json!("HELLO ADA"));
        assert_eq!(asked.lock().unwrap().len(), 2);
    }

    #[tokio::test]
    async fn a_caller_that_cannot_ask_gets_the_terminal_interruption() {
        let server = server().await;
        let tools = A2aToolExecutor::connect(server.url())
            .await
            .expect("connect");
        let failure = tools
            .execute_with_context("book", &json!({"show": "Hamlet"}), ToolContext::new())
            .await
            .expect_err("cannot ask");
        assert_eq!(failure.code(), "a2a_interrupted");
        assert_eq!(
            failure.message(),
            "tool `book`: the agent stopped at `TASK_STATE_INPUT_REQUIRED` (a tool call cannot \
             answer it): Seats for Hamlet?"
        );
    }
}

/// The whole way: an MCP client's elicitor answers a question asked by a tool behind A2A.
#[cfg(all(feature = "a2a-client", feature = "mcp-http"))]
mod through_mcp {
    use std::sync::Mutex;

    use tokio_util::sync::CancellationToken;
    use tool_executor::agent::A2aToolExecutor;
    use tool_executor::elicit::{Action, ElicitError, Question, Reply};
    use tool_executor::mcp::{McpProtocol, McpServer, McpServerConfig, McpToolExecutor};
    use tool_executor::tool::BoxFuture;

    use super::*;

    /// Our tools behind a `ToolAgent`, re-served over MCP (stateful HTTP) by an
    /// `A2aToolExecutor`: the MCP URL, and the agent kept alive.
    async fn bridge() -> (String, RunningAgent, CancellationToken) {
        let agent = server().await;
        let tools = A2aToolExecutor::connect(agent.url())
            .await
            .expect("connect");
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}/mcp", listener.local_addr().unwrap());
        let shutdown = CancellationToken::new();
        tokio::spawn(McpServer::new(tools).serve_http_on(listener, shutdown.clone()));
        (url, agent, shutdown)
    }

    #[tokio::test]
    async fn an_mcp_clients_elicitor_answers_a_question_asked_behind_a2a() {
        let (url, _agent, shutdown) = bridge().await;
        let asked = Arc::new(Mutex::new(Vec::<Question>::new()));
        let seen = Arc::clone(&asked);
        let elicitor = move |question: Question| -> BoxFuture<'static, Result<Reply, ElicitError>> {
            seen.lock().unwrap().push(question);
            Box::pin(async {
                Ok(Reply {
                    action: Action::Accept,
                    content: json!({"count": 4, "seat": "Window"}).as_object().cloned(),
                })
            })
        };
        let config = McpServerConfig::http("bridge", url)
            .protocol(McpProtocol::Initialize)
            .with_elicitor(elicitor);
        let client = McpToolExecutor::connect(config).await.expect("connect");
        let out = client
            .execute_with_context("book", &json!({"show": "Hamlet"}), ToolContext::new())
            .await
            .expect("booked");
        assert_eq!(out.output, json!("4 Window seats for Hamlet"));
        let approved = client
            .execute_with_context("delete_note", &json!({"id": 2}), ToolContext::new())
            .await
            .expect("approved");
        assert_eq!(approved.output, json!("deleted note 2"));
        let asked = asked.lock().unwrap();
        assert_eq!(asked[0].message(), "Seats for Hamlet?");
        // An approval reaches an MCP client as a form with no fields.
        assert_eq!(
            asked[1],
            Question::Form {
                message: "Run delete_note with id = 2?".into(),
                schema: json!({"type": "object", "properties": {}}),
            }
        );
        shutdown.cancel();
    }
}

/// With the server crate's approval gate installed, it checks the decision (the pending
/// request, the digest, an authenticated approver other than the requester) before the tool
/// resumes with it.
mod gated {
    use a2a_support::{V1, request};
    use tool_executor::agent::Agent;
    use tool_executor::agent::server::approval::ApprovalGate;
    use tool_executor::agent::server::auth::ApiKeyAuthInterceptor;
    use tool_executor::agent::types::security::{
        ApiKeyLocation, ApiKeySecurityScheme, SecurityScheme,
    };

    use super::*;

    async fn gated_server() -> RunningAgent {
        // The card declares the API key the interceptor checks (the server crate requires it).
        let mut card = agent().card("http://127.0.0.1/");
        card.security_schemes = Some(std::collections::HashMap::from([(
            "apiKey".to_owned(),
            SecurityScheme::ApiKey(ApiKeySecurityScheme {
                description: None,
                location: ApiKeyLocation::Header,
                name: "x-api-key".to_owned(),
            }),
        )]));
        AgentServer::builder()
            .configure(|b| {
                b.with_agent_card(card)
                    .with_interceptor(ApiKeyAuthInterceptor::with_labelled_keys([
                        ("alice-key", "alice"),
                        ("bob-key", "bob"),
                    ]))
                    .share_tasks_across_callers()
                    .with_approval_gate(ApprovalGate::new())
            })
            .bind("127.0.0.1:0", agent())
            .await
            .expect("bind")
            .spawn()
    }

    /// A `SendMessage` as the caller holding `key`: the whole JSON-RPC response.
    async fn send_as(addr: std::net::SocketAddr, key: &str, params: Value) -> Value {
        let body = json!({"jsonrpc": "2.0", "id": 1, "method": "SendMessage", "params": params})
            .to_string();
        let headers = [V1, ("Content-Type", "application/json"), ("x-api-key", key)];
        request(addr, "POST", "/", &headers, Some(&body))
            .await
            .json()
    }

    #[tokio::test]
    async fn the_gate_admits_another_callers_matching_decision_only() {
        let server = gated_server().await;
        let addr = server.local_addr();
        let deleted = DELETED.load(Ordering::SeqCst);
        let task = send_as(addr, "alice-key", call("delete_note", &json!({"id": 21}))).await;
        let task = task["result"]["task"].clone();
        assert_eq!(
            task["status"]["state"], "TASK_STATE_INPUT_REQUIRED",
            "{task}"
        );
        let pending = task["status"]["message"]["metadata"][APPROVAL_KEY].clone();
        assert_eq!(pending["requestedBy"], "api-key:alice", "{pending}");
        let decision = |digest: &Value| {
            json!({ APPROVAL_KEY: {
                "requestId": pending["requestId"], "decision": "approve", "digest": digest
            }})
        };

        // The requester may not approve its own call.
        let own = send_as(
            addr,
            "alice-key",
            answer(
                &task,
                &json!([{"text": "ok"}]),
                Some(decision(&pending["digest"])),
            ),
        )
        .await;
        assert_eq!(
            own["error"]["message"],
            "an approval must come from someone other than the caller whose run asked",
            "{own}"
        );
        // Another caller's approval of other arguments is refused by the gate.
        let other = approval_digest(
            "delete_note",
            &json!({"id": 22}),
            "Run delete_note with id = 22?",
        );
        let forged = send_as(
            addr,
            "bob-key",
            answer(
                &task,
                &json!([{"text": "ok"}]),
                Some(decision(&json!(other))),
            ),
        )
        .await;
        assert_eq!(forged["error"]["code"], -32602, "{forged}");
        assert_eq!(
            forged["error"]["message"],
            "the decision's digest does not match the pending request: the approver was shown \
             a different action"
        );
        assert_eq!(DELETED.load(Ordering::SeqCst), deleted);

        let done = send_as(
            addr,
            "bob-key",
            answer(
                &task,
                &json!([{"text": "ok"}]),
                Some(decision(&pending["digest"])),
            ),
        )
        .await;
        let done = done["result"]["task"].clone();
        assert_eq!(done["status"]["state"], "TASK_STATE_COMPLETED", "{done}");
        assert_eq!(
            done["artifacts"][0]["parts"],
            json!([{ "data": "deleted note 21" }])
        );
    }
}

/// MCP 2026-07-28 in front of the A2A hop: the question ends the MCP call with
/// `input_required`, which drops the relay and cancels the parked A2A task; the retry runs the
/// call again, a new A2A task asks the same question, and the retry's answer answers it.
#[cfg(all(
    feature = "a2a-client",
    feature = "mcp-http",
    feature = "request-state"
))]
mod through_mrtr {
    use http_wire::{Body, Conn};
    use tokio_util::sync::CancellationToken;
    use tool_executor::agent::A2aToolExecutor;
    use tool_executor::elicit::StateKeys;
    use tool_executor::mcp::McpServer;

    use super::*;

    async fn call(addr: std::net::SocketAddr, id: u32, retry: Option<(Value, &str)>) -> Value {
        let mut params = json!({
            "name": "book", "arguments": {"show": "Hamlet"},
            "_meta": {
                "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientCapabilities": { "elicitation": { "form": {} } },
                "io.modelcontextprotocol/clientInfo": { "name": "mrtr", "version": "1" }
            }
        });
        if let Some((responses, state)) = retry {
            params["inputResponses"] = responses;
            params["requestState"] = state.into();
        }
        let body = json!({ "jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params })
            .to_string();
        let head = format!(
            "POST /mcp HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
             Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\n\
             Mcp-Method: tools/call\r\nMcp-Name: book\r\n"
        );
        let mut conn = Conn::connect(addr).await;
        let response = tokio::time::timeout(
            http_wire::WAIT,
            conn.send(&head, Body::Length(body.as_bytes())),
        )
        .await
        .expect("an answer in time")
        .unwrap();
        assert_eq!(response.status, 200, "{}", response.body);
        response.json()
    }

    /// The agent's tasks' states, sorted.
    async fn states(agent: std::net::SocketAddr) -> Vec<String> {
        let listed = rpc(agent, "ListTasks", json!({})).await;
        let mut states: Vec<String> = listed["tasks"]
            .as_array()
            .unwrap_or_else(|| panic!("{listed}"))
            .iter()
            .map(|t| t["status"]["state"].as_str().unwrap_or_default().to_owned())
            .collect();
        states.sort();
        states
    }

    #[tokio::test]
    async fn an_input_required_round_reaches_a_question_asked_behind_a2a() {
        let agent = server().await;
        let tools = A2aToolExecutor::connect(agent.url())
            .await
            .expect("connect");
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let shutdown = CancellationToken::new();
        let server = McpServer::new(tools)
            .with_stateless_http(true)
            .with_request_state_keys(StateKeys::new("k", [7; 32]));
        tokio::spawn(server.serve_http_on(listener, shutdown.clone()));

        let first = call(addr, 1, None).await;
        assert_eq!(first["result"]["resultType"], "input_required", "{first}");
        assert_eq!(
            first["result"]["inputRequests"]["q0"]["params"]["requestedSchema"],
            Booking::schema()
        );
        let state = first["result"]["requestState"].as_str().unwrap().to_owned();
        // The round ended on the question: the parked A2A task is cancelled.
        let deadline = tokio::time::Instant::now() + a2a_support::TIMEOUT;
        while states(agent.local_addr()).await != ["TASK_STATE_CANCELED"] {
            assert!(
                tokio::time::Instant::now() < deadline,
                "{:?}",
                states(agent.local_addr()).await
            );
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }

        let answer =
            json!({ "q0": { "action": "accept", "content": { "count": 5, "seat": "Window" } } });
        let second = call(addr, 2, Some((answer, &state))).await;
        assert_eq!(
            second["result"]["content"][0]["text"], "5 Window seats for Hamlet",
            "{second}"
        );
        assert_eq!(
            states(agent.local_addr()).await,
            ["TASK_STATE_CANCELED", "TASK_STATE_COMPLETED"]
        );
        shutdown.cancel();
    }
}
