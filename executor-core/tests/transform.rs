//! `transform`: renames, argument transforms, visibility and hooks over a `ToolSet`, checked
//! through what a caller sees (the listed specs, the outputs, the failures).

use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Value, json};
use tool_executor::prelude::*;
use tool_executor::provider::{Definitions, Provider};
use tool_executor::runtime::Runtime;
use tool_executor::transform::{
    AfterCall, BeforeCall, Transform, TransformError, Transformed, Visibility,
};
use tool_executor::{FailureKind, ToolSet, ToolStreamChunk};

/// Reads a file of a user.
#[tool(read_only, tags = ["files"])]
fn read(
    /// Whose file.
    user: &str,
    /// The path.
    path: &str,
    /// Bytes, not text.
    #[arg(default)]
    raw: bool,
) -> String {
    format!("{user}:{path}:{raw}")
}

/// Deletes a file.
#[tool(destructive, tags = ["files", "admin"])]
async fn delete(path: String) -> String {
    tokio::task::yield_now().await;
    format!("deleted {path}")
}

/// Hashes a file on the blocking pool.
#[tool(timeout = "5s")]
#[allow(clippy::needless_pass_by_value)] // a body on the blocking pool owns its arguments
fn hash(path: String, ctx: &ToolContext) -> String {
    let _ = ctx;
    format!("hash of {path}")
}

/// Counts to `to`, streaming each number.
#[tool]
async fn count(to: u32, ctx: &ToolContext) -> u32 {
    for i in 1..=to {
        ctx.text(i.to_string()).await;
    }
    to
}

fn set() -> ToolSet {
    toolset![read, delete, hash, count]
}

fn names<E: ToolExecutor>(tools: &E) -> Vec<String> {
    tools.specs().iter().map(|s| s.name.clone()).collect()
}

async fn call<E: ToolExecutor>(tools: &E, tool: &str, args: Value) -> Result<Value, ToolFailure> {
    tools
        .execute_with_context(tool, &args, ToolContext::new())
        .await
        .map(|e| e.output)
}

#[test]
fn tags_from_the_attribute_reach_the_spec() {
    assert_eq!(read::spec().tags, ["files"]);
    assert_eq!(delete::spec().tags, ["files", "admin"]);
    assert!(hash::spec().tags.is_empty());
    // Absent tags are left out of the serialized spec.
    let spec = serde_json::to_value(hash::spec().as_ref()).unwrap();
    assert!(spec.get("tags").is_none());
}

#[tokio::test]
async fn a_renamed_and_prefixed_tool_is_listed_and_called_under_its_new_name_only() {
    let tools = Transform::new(set())
        .prefix("fs.")
        .rename("read", "cat")
        .describe("read", "Prints a file.")
        .title("read", "Cat")
        .annotate("delete", |a| a.idempotent = Some(true))
        .build()
        .unwrap();
    assert_eq!(
        names(&tools),
        ["fs.cat", "fs.delete", "fs.hash", "fs.count"]
    );
    let cat = &tools.specs()[0];
    assert_eq!(cat.description, "Prints a file.");
    assert_eq!(cat.annotations.title.as_deref(), Some("Cat"));
    assert_eq!(cat.annotations.read_only, Some(true));
    let delete = &tools.specs()[1];
    assert_eq!(delete.annotations.destructive, Some(true));
    assert_eq!(delete.annotations.idempotent, Some(true));
    let args = json!({"user": "ada", "path": "a.txt"});
    assert_eq!(
        call(&tools, "fs.cat", args.clone()).await,
        Ok(json!("ada:a.txt:false"))
    );
    for old in ["read", "cat", "fs.read"] {
        let failure = call(&tools, old, args.clone()).await.unwrap_err();
        assert_eq!(failure.kind(), FailureKind::UnknownTool, "{old}");
    }
    // Sync tools on the blocking pool are called under their new names too.
    let hashed = call(&tools, "fs.hash", json!({"path": "p"})).await;
    assert_eq!(hashed, Ok(json!("hash of p")));
}

#[tokio::test]
async fn argument_transforms_rewrite_the_schema_and_map_calls_back() {
    let tools = Transform::new(set())
        .bind_arg("read", "user", |ctx| match ctx.session_id() {
            Some(session) => Ok(json!(session)),
            None => Err(ToolFailure::terminal("no session").with_code("unauthenticated")),
        })
        .rename_arg("read", "path", "file")
        .describe_arg("read", "file", "The file to read.")
        .fix_arg("read", "raw", json!(true))
        .default_arg("delete", "path", json!("/tmp/x"))
        .build()
        .unwrap();
    let spec = tools.specs()[0].clone();
    assert_eq!(
        spec.input_schema,
        json!({
            "type": "object",
            "properties": {"file": {"type": "string", "description": "The file to read."}},
            "required": ["file"],
            "additionalProperties": false,
        })
    );
    let delete = tools.specs()[1].clone();
    assert_eq!(
        delete.input_schema["properties"]["path"]["default"],
        json!("/tmp/x")
    );
    assert!(delete.input_schema.get("required").is_none());
    let ctx = ToolContext::new().with_session_id("ada");
    // A caller cannot override a bound or fixed argument, nor send a renamed one's old name.
    let sneaky = json!({"file": "a.txt", "user": "root", "raw": false, "path": "/etc/shadow"});
    let out = tools.execute_with_context("read", &sneaky, ctx).await;
    assert_eq!(out.unwrap().output, json!("ada:a.txt:true"));
    let anonymous = call(&tools, "read", json!({"file": "a.txt"}))
        .await
        .unwrap_err();
    assert_eq!(anonymous.code(), "unauthenticated");
    assert_eq!(
        call(&tools, "delete", json!({})).await,
        Ok(json!("deleted /tmp/x"))
    );
    assert_eq!(
        call(&tools, "delete", json!({"path": "b"})).await,
        Ok(json!("deleted b"))
    );
    let not_object = call(&tools, "read", json!([1])).await.unwrap_err();
    assert_eq!(not_object.kind(), FailureKind::InvalidArguments);
}

#[tokio::test]
async fn a_hidden_optional_argument_takes_the_tools_own_default() {
    let tools = Transform::new(set())
        .hide_arg("read", "raw")
        .build()
        .unwrap();
    let schema = &tools.specs()[0].input_schema;
    assert_eq!(schema["required"], json!(["user", "path"]));
    assert!(schema["properties"].get("raw").is_none());
    let args = json!({"user": "ada", "path": "p", "raw": true});
    assert_eq!(call(&tools, "read", args).await, Ok(json!("ada:p:false")));
}

#[test]
fn an_invalid_transform_is_an_error_naming_the_tool_and_argument() {
    let err = |t: Transform<ToolSet>| t.build().unwrap_err();
    let cases = [
        (
            err(Transform::new(set()).hide_arg("read", "path")),
            TransformError::HiddenRequired {
                tool: "read".into(),
                argument: "path".into(),
            },
            "tool `read`: argument `path` is required, so it cannot be hidden without a value; \
             fix it to a value, give it a default or bind it",
        ),
        (
            err(Transform::new(set()).rename("read", "delete")),
            TransformError::NameCollision {
                name: "delete".into(),
                first: "read".into(),
                second: "delete".into(),
            },
            "tools `read` and `delete` would both be listed as `delete`",
        ),
        (
            err(Transform::new(set()).fix_arg("read", "mode", json!(1))),
            TransformError::UnknownArgument {
                tool: "read".into(),
                argument: "mode".into(),
            },
            "tool `read` has no argument `mode` to transform",
        ),
        (
            err(Transform::new(set()).describe("write", "x")),
            TransformError::UnknownTool {
                tool: "write".into(),
            },
            "no tool `write` to transform",
        ),
        (
            err(Transform::new(set()).rename_arg("read", "path", "user")),
            TransformError::ArgumentCollision {
                tool: "read".into(),
                argument: "path".into(),
                name: "user".into(),
            },
            "tool `read`: argument `path` cannot be renamed to `user`, which another argument is named",
        ),
        (
            err(Transform::new(set()).rename("read", "read file")),
            TransformError::InvalidName {
                tool: "read".into(),
                name: "read file".into(),
            },
            "tool `read` cannot be named `read file`: a tool name is 1 to 64 letters, digits, \
             `_`, `-` or `.`",
        ),
    ];
    for (error, expected, message) in cases {
        assert_eq!(error, expected);
        assert_eq!(error.to_string(), message);
    }
}

#[tokio::test]
async fn hidden_tools_are_absent_and_refused_and_changes_are_announced() {
    let visibility = Visibility::new();
    let tools = Transform::new(set())
        .visibility(visibility.clone())
        .build()
        .unwrap();
    let mut changes = tools.list_changes().expect("visibility announces changes");
    assert_eq!(names(&tools), ["read", "delete", "hash", "count"]);

    visibility.disable_tag("admin");
    assert!(changes.changed().await);
    assert_eq!(names(&tools), ["read", "hash", "count"]);
    let refused = call(&tools, "delete", json!({"path": "p"}))
        .await
        .unwrap_err();
    assert_eq!(refused.kind(), FailureKind::UnknownTool);
    assert_eq!(refused.message(), "unknown tool `delete`");

    visibility.disable("hash");
    visibility.enable("delete"); // by name, over its disabled tag
    assert!(changes.changed().await);
    assert_eq!(names(&tools), ["read", "delete", "count"]);
    assert!(call(&tools, "delete", json!({"path": "p"})).await.is_ok());

    // Provider definitions and a runtime over the set list the same.
    let defs = Definitions::of(&tools, Provider::OpenAiChat).unwrap();
    let listed: Vec<&str> = defs
        .tools()
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["function"]["name"].as_str().unwrap())
        .collect();
    assert_eq!(listed, ["read", "delete", "count"]);
    assert_eq!(
        names(&Runtime::new(tools.clone())),
        ["read", "delete", "count"]
    );

    // A change that changes nothing is not announced.
    visibility.disable("hash");
    let quiet = tokio::time::timeout(Duration::from_millis(50), changes.changed()).await;
    assert!(quiet.is_err(), "no change, no announcement");
}

#[tokio::test]
async fn per_caller_visibility_reads_the_context() {
    let visibility = Visibility::new();
    visibility.for_callers(|spec, ctx| {
        !spec.has_tag("admin") || ctx.session_id() == Some("admin-session")
    });
    let tools = Transform::new(set())
        .visibility(visibility.clone())
        .build()
        .unwrap();
    let admin = ToolContext::new().with_session_id("admin-session");
    let guest = ToolContext::new().with_session_id("guest");
    let listed = |ctx: &ToolContext| -> Vec<String> {
        tools
            .specs_for(ctx)
            .iter()
            .map(|s| s.name.clone())
            .collect()
    };
    assert_eq!(listed(&admin), ["read", "delete", "hash", "count"]);
    assert_eq!(listed(&guest), ["read", "hash", "count"]);
    // No caller in particular: asked with an empty context.
    assert_eq!(names(&tools), ["read", "hash", "count"]);
    let args = json!({"path": "p"});
    let as_guest = tools.execute_with_context("delete", &args, guest).await;
    assert_eq!(as_guest.unwrap_err().kind(), FailureKind::UnknownTool);
    let as_admin = tools.execute_with_context("delete", &args, admin).await;
    assert_eq!(as_admin.unwrap().output, json!("deleted p"));
    // Through a runtime, the caller's listing is still the caller's.
    let runtime = Runtime::new(tools.clone());
    let guest = ToolContext::new().with_session_id("guest");
    assert_eq!(runtime.specs_for(&guest).len(), 3);
    visibility.for_every_caller();
    assert_eq!(names(&tools).len(), 4);
}

#[tokio::test]
async fn tools_of_a_scoped_tag_are_shown_to_principals_with_the_scope() {
    use tool_executor::auth::Principal;
    let visibility = Visibility::new();
    let tools = Transform::new(set())
        .visibility(visibility.clone())
        .build()
        .unwrap();
    let mut changes = tools.list_changes().unwrap();
    visibility.require_scope("admin", "files:admin");
    assert!(changes.changed().await);
    let admin =
        || ToolContext::new().with_extension(Principal::new("ada").with_scopes(["files:admin"]));
    let reader =
        || ToolContext::new().with_extension(Principal::new("bob").with_scopes(["files:read"]));
    let listed = |ctx: &ToolContext| -> Vec<String> {
        tools
            .specs_for(ctx)
            .iter()
            .map(|s| s.name.clone())
            .collect()
    };
    assert_eq!(listed(&admin()), ["read", "delete", "hash", "count"]);
    assert_eq!(listed(&reader()), ["read", "hash", "count"]);
    assert_eq!(listed(&ToolContext::new()), ["read", "hash", "count"]);
    let args = json!({"path": "p"});
    let refused = tools.execute_with_context("delete", &args, reader()).await;
    assert_eq!(refused.unwrap_err().kind(), FailureKind::UnknownTool);
    let allowed = tools.execute_with_context("delete", &args, admin()).await;
    assert_eq!(allowed.unwrap().output, json!("deleted p"));
    // Setting the same scope again changes nothing and announces nothing.
    visibility.require_scope("admin", "files:admin");
    let quiet = tokio::time::timeout(Duration::from_millis(50), changes.changed()).await;
    assert!(quiet.is_err());
}

/// A guardrail: refuses paths under `/etc`, and records the calls it saw.
fn guardrail(
    log: Arc<Mutex<Vec<String>>>,
) -> impl Fn(&mut BeforeCall<'_>) -> Result<(), ToolFailure> {
    move |call| {
        log.lock()
            .unwrap()
            .push(format!("guard {}", call.spec().name));
        match call.args().get("path").and_then(Value::as_str) {
            Some(path) if path.starts_with("/etc") => Err(ToolFailure::terminal(format!(
                "{} may not touch {path}",
                call.spec().name
            ))
            .with_code("guardrail")),
            _ => Ok(()),
        }
    }
}

#[tokio::test]
async fn hooks_run_in_order_refuse_rewrite_and_redact() {
    let log = Arc::new(Mutex::new(Vec::new()));
    let seen = Arc::clone(&log);
    let after_log = Arc::clone(&log);
    let tools: Transformed<ToolSet> = Transform::new(set())
        .rename("delete", "rm")
        .before(guardrail(Arc::clone(&log)))
        .before(move |call: &mut BeforeCall<'_>| {
            seen.lock()
                .unwrap()
                .push(format!("rewrite {}", call.spec().name));
            if let Some(path) = call.args().get("path").and_then(Value::as_str) {
                let lower = path.to_lowercase();
                call.args_mut()["path"] = json!(lower);
            }
            Ok(())
        })
        .after(
            move |call: &AfterCall<'_>, outcome: &mut Result<_, ToolFailure>| {
                after_log.lock().unwrap().push(format!(
                    "after {} attempt {}",
                    call.spec().name,
                    call.caller().attempt
                ));
                if let Err(failure) = outcome
                    && failure.code() != "guardrail"
                {
                    *failure = failure.clone().redact();
                }
            },
        )
        .after(
            |_: &AfterCall<'_>, outcome: &mut Result<tool_executor::ToolExecution, ToolFailure>| {
                if let Ok(execution) = outcome {
                    execution.output = json!({"wrapped": execution.output.take()});
                }
            },
        )
        .build()
        .unwrap();
    let out = call(&tools, "rm", json!({"path": "A.TXT"})).await;
    assert_eq!(out, Ok(json!({"wrapped": "deleted a.txt"})));
    let refused = call(&tools, "rm", json!({"path": "/etc/passwd"}))
        .await
        .unwrap_err();
    assert_eq!(refused.code(), "guardrail");
    assert_eq!(refused.message(), "rm may not touch /etc/passwd");
    let bad = call(&tools, "rm", json!({"path": 3})).await.unwrap_err();
    assert_eq!(bad.kind(), FailureKind::InvalidArguments);
    assert!(bad.is_redacted(), "the after hook redacted it");
    assert_eq!(
        *log.lock().unwrap(),
        [
            "guard rm",
            "rewrite rm",
            "after rm attempt 1",
            "guard rm",
            "after rm attempt 1",
            "guard rm",
            "rewrite rm",
            "after rm attempt 1",
        ]
    );
}

#[tokio::test]
async fn hooks_and_renames_apply_to_streamed_calls() {
    let tools = Transform::new(set())
        .rename("count", "tally")
        .before(|call: &mut BeforeCall<'_>| {
            if call.args()["to"].as_u64() > Some(5) {
                return Err(ToolFailure::terminal("too far").with_code("guardrail"));
            }
            Ok(())
        })
        .after(
            |_: &AfterCall<'_>, outcome: &mut Result<tool_executor::ToolExecution, ToolFailure>| {
                if let Ok(execution) = outcome {
                    execution.output = json!(execution.output.as_u64().unwrap_or(0) * 10);
                }
            },
        )
        .build()
        .unwrap();
    let mut rx = tools
        .execute_stream("tally", &json!({"to": 2}), "a-1")
        .await
        .unwrap();
    let mut chunks = Vec::new();
    while let Some(chunk) = rx.recv().await {
        chunks.push(chunk);
    }
    assert_eq!(
        chunks,
        [
            ToolStreamChunk::Text { text: "1".into() },
            ToolStreamChunk::Text { text: "2".into() },
            ToolStreamChunk::Done {
                result: Some(json!(20))
            },
        ]
    );
    let mut rx = tools
        .execute_stream("tally", &json!({"to": 9}), "a-2")
        .await
        .unwrap();
    let Some(ToolStreamChunk::Error { message, .. }) = rx.recv().await else {
        panic!("a refused stream ends in an error chunk");
    };
    assert_eq!(message, "too far");
}

/// Echoes every call's tool name and lists nothing, as a peer that cannot list does.
struct Unlisted;

impl tool_executor::ContextExecutor for Unlisted {
    fn dispatch<'a>(
        &'a self,
        tool: &'a str,
        _params: &'a Value,
        _ctx: ToolContext,
    ) -> tool_executor::tool::BoxFuture<'a, Result<tool_executor::ToolExecution, ToolFailure>> {
        Box::pin(async move { Ok(tool_executor::ToolExecution::output_only(json!(tool))) })
    }
}

#[tokio::test]
async fn an_executor_that_lists_nothing_is_passed_every_name() {
    let tools = Transform::new(Unlisted)
        .before(|_: &mut BeforeCall<'_>| Ok(()))
        .build()
        .unwrap();
    assert!(tools.specs().is_empty());
    assert_eq!(
        call(&tools, "anything", json!({})).await,
        Ok(json!("anything"))
    );
}

#[tokio::test]
async fn any_executor_is_transformed_not_only_a_tool_set() {
    // A runtime over the set: calls go through the executor, not the set's functions.
    let tools = Transform::new(Runtime::new(set()))
        .rename("delete", "rm")
        .fix_arg("delete", "path", json!("/tmp/fixed"))
        .before(|call: &mut BeforeCall<'_>| {
            if call.ctx().attempt() > 1 {
                return Err(ToolFailure::terminal("no retries here"));
            }
            Ok(())
        })
        .build()
        .unwrap();
    assert_eq!(names(&tools), ["read", "rm", "hash", "count"]);
    assert_eq!(
        call(&tools, "rm", json!({})).await,
        Ok(json!("deleted /tmp/fixed"))
    );
    let retried = ToolContext::new().with_attempt(2);
    let refused = tools.execute_with_context("rm", &json!({}), retried).await;
    assert_eq!(refused.unwrap_err().message(), "no retries here");
}
