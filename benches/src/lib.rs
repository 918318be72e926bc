//! The tools the benchmarks compare, written three ways.
//!
//! Every style serves the same 20 tools, `t00` … `t19`. Each takes three arguments — `name`
//! (a string), `count` (an `i64`) and an optional `flag` — and returns a small [`Reply`]:
//!
//! - [`ours`]: `#[tool]` functions in a `toolset!`, plus the same tools borrowing `name: &str`;
//! - [`hand`]: a hand-written `match` dispatcher that boxes the future and decodes a
//!   `#[derive(Deserialize)]` struct with `T::deserialize(&Value)`, with a spec list cached in a
//!   `OnceLock` — the baseline the budgets in `BENCHMARKS.md` §1 are measured against;
//! - [`peer`]: rmcp's `#[tool_router]`/`#[tool_handler]`, called through a stored `ToolRouter`.
//!
//! The benchmarks themselves are in `benches/`; `BENCHMARKS.md` at the workspace root says how
//! to run them (§3) and what they measured.

use std::future::Future;
use std::pin::pin;
use std::task::{Context, Poll, Waker};

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

/// The tool the call benchmarks dispatch to: in the middle of the 20 sorted names, so neither
/// the `match` nor the binary search gets its best case.
pub const CALLED: &str = "t10";

/// The arguments every call sends.
#[must_use]
pub fn arguments() -> Value {
    json!({"name": "Ada Lovelace", "count": 7, "flag": true})
}

/// What every tool returns.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Reply {
    /// Which tool answered.
    pub tool: u32,
    /// `count` times the length of `name`.
    pub total: i64,
    /// The flag, `false` when absent.
    pub flagged: bool,
}

impl Reply {
    fn new(tool: u32, name: &str, count: i64, flag: Option<bool>) -> Self {
        Self {
            tool,
            total: count * i64::try_from(name.len()).unwrap_or(i64::MAX),
            flagged: flag.unwrap_or(false),
        }
    }
}

/// Runs a future that finishes without waiting — every tool call here does — to completion
/// on the calling thread, so the benchmarks time the call and not an executor.
///
/// # Panics
/// If the future waits: that would be a bug in the benchmark set-up, not a slow call.
#[inline]
pub fn ready<F: Future>(fut: F) -> F::Output {
    let mut fut = pin!(fut);
    match fut.as_mut().poll(&mut Context::from_waker(Waker::noop())) {
        Poll::Ready(out) => out,
        Poll::Pending => panic!("a benchmarked call waited; it must finish in one poll"),
    }
}

/// Declares the 20 tools in each style from one list of names and numbers.
macro_rules! twenty {
    ($mac:ident) => {
        $mac! {
            (t00, 0), (t01, 1), (t02, 2), (t03, 3), (t04, 4),
            (t05, 5), (t06, 6), (t07, 7), (t08, 8), (t09, 9),
            (t10, 10), (t11, 11), (t12, 12), (t13, 13), (t14, 14),
            (t15, 15), (t16, 16), (t17, 17), (t18, 18), (t19, 19)
        }
    };
}

/// Our tools: plain functions under `#[tool]`, served by a `toolset!`.
pub mod ours {
    use tool_executor::ToolSet;
    use tool_executor::prelude::*;

    use super::Reply;

    macro_rules! declare {
        ($(($name:ident, $n:tt)),*) => {
            $(
                /// Scores a name (owned string).
                #[tool]
                pub async fn $name(name: String, count: i64, flag: Option<bool>) -> Reply {
                    Reply::new($n, &name, count, flag)
                }
            )*

            /// The 20 tools as one executor.
            #[must_use]
            pub fn toolset() -> ToolSet {
                toolset![$($name),*]
            }
        };
    }
    twenty!(declare);

    /// The same tools borrowing `name` from the request instead of allocating a `String`.
    pub mod borrowed {
        use tool_executor::ToolSet;
        use tool_executor::prelude::*;

        use super::super::Reply;

        macro_rules! declare {
            ($(($name:ident, $n:tt)),*) => {
                $(
                    /// Scores a name (borrowed string).
                    #[tool]
                    pub async fn $name(name: &str, count: i64, flag: Option<bool>) -> Reply {
                        Reply::new($n, name, count, flag)
                    }
                )*

                /// The 20 borrowing tools as one executor.
                #[must_use]
                pub fn toolset() -> ToolSet {
                    toolset![$($name),*]
                }
            };
        }
        twenty!(declare);
    }
}

/// The hand-written baseline: what a careful author writes without a macro.
pub mod hand {
    use std::sync::{Arc, OnceLock};

    use schemars::JsonSchema;
    use serde::Deserialize;
    use serde_json::Value;
    use tool_executor::ToolSpec;
    use tool_executor::tool::{BoxFuture, SpecList};

    use super::Reply;

    /// The arguments of every tool, decoded with `Args::deserialize(&Value)`.
    #[derive(Debug, Deserialize, JsonSchema)]
    #[serde(deny_unknown_fields)]
    pub struct Args {
        /// A name.
        pub name: String,
        /// How many.
        pub count: i64,
        /// An optional flag.
        pub flag: Option<bool>,
    }

    fn schema_of<T: JsonSchema>() -> Value {
        serde_json::to_value(schemars::schema_for!(T)).unwrap_or_default()
    }

    macro_rules! declare {
        ($(($name:ident, $n:tt)),*) => {
            $(
                /// Scores a name.
                pub async fn $name(args: Args) -> Reply {
                    Reply::new($n, &args.name, args.count, args.flag)
                }
            )*

            /// Dispatches `tool` with a `match`: decode, call, encode, one boxed future.
            pub fn call<'a>(tool: &str, params: &'a Value) -> BoxFuture<'a, Result<Value, String>> {
                match tool {
                    $(
                        stringify!($name) => Box::pin(async move {
                            let args = Args::deserialize(params).map_err(|e| e.to_string())?;
                            serde_json::to_value($name(args).await).map_err(|e| e.to_string())
                        }),
                    )*
                    other => {
                        let message = format!("unknown tool `{other}`");
                        Box::pin(std::future::ready(Err(message)))
                    }
                }
            }

            /// Builds the 20 specs with schemars (what a cache fills itself with).
            #[must_use]
            pub fn build_specs() -> Vec<Arc<ToolSpec>> {
                let input = schema_of::<Args>();
                let output = schema_of::<Reply>();
                vec![$(
                    Arc::new(
                        ToolSpec::new(stringify!($name), "Scores a name.", input.clone())
                            .with_output_schema(output.clone()),
                    )
                ),*]
            }
        };
    }
    twenty!(declare);

    /// The specs, built once and shared: the same return type as `ToolExecutor::specs`.
    #[must_use]
    pub fn specs() -> SpecList {
        static SPECS: OnceLock<SpecList> = OnceLock::new();
        Arc::clone(SPECS.get_or_init(|| build_specs().into()))
    }

    /// The specs, built once and cloned into an owned list on every call (a `Vec` like rmcp's
    /// `list_all` returns).
    #[must_use]
    pub fn specs_vec() -> Vec<Arc<ToolSpec>> {
        static SPECS: OnceLock<Vec<Arc<ToolSpec>>> = OnceLock::new();
        SPECS.get_or_init(build_specs).clone()
    }

    /// The spec of one tool, built on first use: the first-use benchmark's hand-written side.
    #[must_use]
    pub fn spec_t00() -> &'static Arc<ToolSpec> {
        static SPEC: OnceLock<Arc<ToolSpec>> = OnceLock::new();
        SPEC.get_or_init(|| {
            Arc::new(
                ToolSpec::new("t00", "Scores a name.", schema_of::<Args>())
                    .with_output_schema(schema_of::<Reply>()),
            )
        })
    }
}

/// The peer: rmcp 3.x tools under `#[tool_router]`, served by `#[tool_handler]` from a stored
/// router.
pub mod peer {
    use rmcp::handler::server::router::tool::ToolRouter;
    use rmcp::handler::server::wrapper::{Json, Parameters};
    use rmcp::{ServerHandler, tool, tool_handler, tool_router};
    use schemars::JsonSchema;
    use serde::Deserialize;

    use super::Reply;

    /// The arguments of every tool.
    #[derive(Debug, Deserialize, JsonSchema)]
    #[serde(deny_unknown_fields)]
    pub struct Args {
        /// A name.
        pub name: String,
        /// How many.
        pub count: i64,
        /// An optional flag.
        pub flag: Option<bool>,
    }

    /// An rmcp server holding its router, as rmcp's examples do.
    #[derive(Debug, Clone)]
    pub struct Server {
        /// The stored router `#[tool_handler]` calls through.
        pub tool_router: ToolRouter<Self>,
    }

    impl Default for Server {
        fn default() -> Self {
            Self {
                tool_router: Self::tool_router(),
            }
        }
    }

    macro_rules! declare {
        ($(($name:ident, $n:tt)),*) => {
            // rmcp generates an undocumented `pub fn tool_router()`.
            #[allow(missing_docs)]
            #[tool_router(vis = "pub")]
            impl Server {
                $(
                    #[tool(description = "Scores a name.")]
                    async fn $name(&self, Parameters(args): Parameters<Args>) -> Json<Reply> {
                        Json(Reply::new($n, &args.name, args.count, args.flag))
                    }
                )*
            }
        };
    }
    twenty!(declare);

    #[tool_handler(router = self.tool_router)]
    impl ServerHandler for Server {}
}

/// MCP `tools/call` round trips over an in-memory pipe (`tokio::io::duplex`): one rmcp client
/// against our `McpServer` serving [`ours::toolset`], or against the [`peer`] server. Used by
/// the `mcp` and `interleaved` benchmarks and by `examples/profile.rs`.
pub mod mcp {
    use rmcp::ServiceExt;
    use rmcp::model::CallToolRequestParams;
    use rmcp::service::{RoleClient, RunningService};
    use serde_json::Value;
    use tool_executor::mcp::McpServer;

    use super::{CALLED, arguments, ours, peer};

    /// A connected client.
    pub type Client = RunningService<RoleClient, ()>;

    /// A client connected, handshake done, to our server on the other end of a pipe. Must run
    /// inside a Tokio runtime (the server is spawned on it).
    ///
    /// # Panics
    /// If the handshake fails.
    pub async fn connect_ours() -> Client {
        let (client_io, server_io) = tokio::io::duplex(1 << 16);
        let (read, write) = tokio::io::split(server_io);
        tokio::spawn(McpServer::new(ours::toolset()).serve_io(read, write));
        ().serve(client_io)
            .await
            .expect("our server completes the handshake")
    }

    /// A client connected, handshake done, to the rmcp `#[tool_handler]` server.
    ///
    /// # Panics
    /// If the handshake fails.
    pub async fn connect_rmcp() -> Client {
        let (client_io, server_io) = tokio::io::duplex(1 << 16);
        tokio::spawn(async move {
            let running = peer::Server::default()
                .serve(server_io)
                .await
                .expect("the rmcp server completes the handshake");
            let _ = running.waiting().await;
        });
        ().serve(client_io)
            .await
            .expect("the rmcp server answers the handshake")
    }

    /// The `tools/call` params every round trip sends: [`CALLED`] with [`arguments`].
    #[must_use]
    pub fn params() -> CallToolRequestParams {
        let Value::Object(map) = arguments() else {
            unreachable!("arguments() is an object")
        };
        CallToolRequestParams::new(CALLED).with_arguments(map)
    }

    /// One round trip: the structured result.
    ///
    /// # Panics
    /// If the call is not answered or the tool failed.
    pub async fn call(client: &Client, params: CallToolRequestParams) -> Option<Value> {
        let result = client
            .call_tool(params)
            .await
            .expect("the call is answered");
        assert_ne!(result.is_error, Some(true), "the tool failed: {result:?}");
        result.structured_content
    }
}

/// The provider tool-call adapter (issue 11) against the same call done by hand: one OpenAI
/// Chat completion asking for [`CALLED`] with [`arguments`] as a JSON string. Used by the
/// `provider` and `interleaved` benchmarks and by `examples/profile.rs`.
pub mod provider {
    use std::hint::black_box;

    use serde_json::{Value, json};
    use tool_executor::provider::{Definitions, Provider};
    use tool_executor::{ToolContext, ToolExecutor, ToolSet};

    use super::{CALLED, arguments, ready};

    /// The call's id.
    pub const CALL_ID: &str = "call_1";

    /// The arguments as OpenAI sends them: a JSON string.
    #[must_use]
    pub fn arguments_text() -> String {
        arguments().to_string()
    }

    /// A chat completion whose message asks for one call of [`CALLED`].
    #[must_use]
    pub fn completion() -> Value {
        json!({"choices": [{"message": {"role": "assistant", "tool_calls": [
            {"id": CALL_ID, "type": "function",
             "function": {"name": CALLED, "arguments": arguments_text()}}
        ]}}]})
    }

    /// `set`'s OpenAI Chat definitions (cached in the set).
    ///
    /// # Panics
    /// If two tools map to one OpenAI name (the bench tools do not).
    #[must_use]
    pub fn definitions(set: &ToolSet) -> std::sync::Arc<Definitions> {
        set.definitions(Provider::OpenAiChat)
            .expect("distinct names")
    }

    /// The call by hand, as a careful hand-written caller answers the completion: read the
    /// first tool call's id, name and arguments string out of it with `get`/`as_str`, then
    /// [`direct_known`]. `None` when a part is missing, the arguments do not parse or the call
    /// fails (the bench's call does none of these).
    ///
    /// Inlined into the caller like the adapter's generic [`answered`], so neither side of the
    /// comparison pays a call the other does not.
    #[inline]
    #[must_use]
    pub fn direct(set: &ToolSet, completion: &Value) -> Option<Value> {
        let message = completion.get("choices")?.get(0)?.get("message")?;
        let call = message.get("tool_calls")?.get(0)?;
        let id = call.get("id")?.as_str()?;
        let function = call.get("function")?;
        let name = function.get("name")?.as_str()?;
        let arguments = function.get("arguments")?.as_str()?;
        direct_known(set, id, name, arguments)
    }

    /// The call by hand when its id, name and arguments string are already known (the
    /// baseline before it read them out of the completion): parse the arguments,
    /// `execute_with_context` with the call id, serialize the output and build the
    /// `role: tool` message.
    #[inline]
    #[must_use]
    pub fn direct_known(set: &ToolSet, id: &str, name: &str, arguments: &str) -> Option<Value> {
        let parsed: Value = serde_json::from_str(arguments).ok()?;
        let ctx = ToolContext::new().with_action_id(id);
        let out = ready(set.execute_with_context(name, &parsed, ctx)).ok()?;
        Some(json!({"role": "tool", "tool_call_id": id, "content": out.output.to_string()}))
    }

    /// The adapter: `defs.answer(set, completion)`, its messages moved out one by one into
    /// `each` (as a caller extends its conversation with them); how many there were.
    ///
    /// # Panics
    /// If the completion cannot be read.
    pub fn answered(
        defs: &Definitions,
        set: &ToolSet,
        completion: &Value,
        mut each: impl FnMut(Value),
    ) -> usize {
        let answer = ready(defs.answer(set, black_box(completion))).expect("calls");
        let mut count = 0;
        for message in answer.into_messages() {
            each(message);
            count += 1;
        }
        count
    }

    /// [`answered`]'s messages, collected (for the benches' checks).
    #[must_use]
    pub fn messages(defs: &Definitions, set: &ToolSet, completion: &Value) -> Vec<Value> {
        let mut messages = Vec::new();
        answered(defs, set, completion, |m| messages.push(m));
        messages
    }
}

pub mod http;
pub mod load;
pub mod tasks;
