//! `SubprocessToolExecutor`: tools that are programs, one process per call.
//!
//! The protocol is the seed system's: the executor starts `command args…`, writes one
//! JSON-RPC 2.0 request line to its stdin — the tool's name as `method`, the arguments as
//! `params` — and closes stdin; the program prints one JSON-RPC response on stdout and exits.
//!
//! ```text
//! → {"id":1,"jsonrpc":"2.0","method":"word_count","params":{"text":"a b c"}}
//! ← {"jsonrpc":"2.0","id":1,"result":{"words":3}}
//! ```
//!
//! What this adds to the seed: the process runs in its own process group, and the whole group
//! is killed when the call times out, is cancelled or dropped, or when the program exits
//! (a background child it left behind does not outlive the call), and when the host itself
//! ends mid-call, however it ends (`std::process::exit`, SIGKILL: one supervising `sh` per
//! executor, see `transport/process_group.rs`); stdout is bounded and must be one JSON-RPC
//! response; stderr is bounded and reported in the error.

mod config;
mod outcome;
mod transport;

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::AtomicU64;

use serde_json::{Value, json};

pub use config::{DEFAULT_MAX_STDERR, DEFAULT_MAX_STDOUT, DEFAULT_TIMEOUT, SubprocessTool};

use crate::failure::ToolFailure;
use crate::tool::SpecList;
use crate::tool::route::unserved;
use crate::tool::{BoxFuture, ContextExecutor, ToolContext, ToolExecution, ToolExecutor, ToolSpec};
use crate::transport::process_group::SharedSupervisor;

/// Programs as tools, one process per call (see the [module docs](self)).
///
/// Failures are ordinary (retryable) unless the program's JSON-RPC error says
/// `"data": {"classification": "terminal"}`; a name it does not serve goes to the fallback, or
/// is an unhandled unknown-tool failure.
#[derive(Default, Clone)]
pub struct SubprocessToolExecutor {
    tools: Vec<(String, Arc<SubprocessTool>)>,
    index: HashMap<String, usize>,
    specs: SpecList,
    fallback: Option<Arc<dyn ToolExecutor>>,
    next_id: Arc<AtomicU64>,
    /// Kills the calls' groups if the host ends mid-call, one for every call (and clone).
    supervisor: Arc<SharedSupervisor>,
}

impl std::fmt::Debug for SubprocessToolExecutor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_map()
            .entries(self.tools.iter().map(|(n, t)| (n, &t.command.program)))
            .finish()
    }
}

impl SubprocessToolExecutor {
    /// No tools yet.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Serves `tool` as `name`, replacing a tool of that name.
    pub fn register(&mut self, name: impl Into<String>, tool: SubprocessTool) {
        let name = name.into();
        let tool = Arc::new(tool);
        if let Some(&i) = self.index.get(&name) {
            self.tools[i].1 = tool;
        } else {
            self.index.insert(name.clone(), self.tools.len());
            self.tools.push((name, tool));
        }
        self.specs =
            self.tools
                .iter()
                .map(|(name, tool)| {
                    let mut spec = tool.spec.clone().unwrap_or_else(|| {
                        ToolSpec::new(name.clone(), "", json!({"type": "object"}))
                    });
                    spec.name.clone_from(name);
                    spec.timeout = Some(tool.timeout);
                    Arc::new(spec)
                })
                .collect();
    }

    /// Like [`register`](Self::register), chained.
    #[must_use]
    pub fn with_tool(mut self, name: impl Into<String>, tool: SubprocessTool) -> Self {
        self.register(name, tool);
        self
    }

    /// Sends calls for tools not registered here to `fallback`.
    #[must_use]
    pub fn with_fallback(mut self, fallback: Arc<dyn ToolExecutor>) -> Self {
        self.fallback = Some(fallback);
        self
    }
}

impl ContextExecutor for SubprocessToolExecutor {
    fn dispatch<'a>(
        &'a self,
        tool: &'a str,
        params: &'a Value,
        ctx: ToolContext,
    ) -> BoxFuture<'a, Result<ToolExecution, ToolFailure>> {
        let Some(&i) = self.index.get(tool) else {
            return unserved(self.fallback.as_ref(), tool, params, ctx);
        };
        let entry = Arc::clone(&self.tools[i].1);
        Box::pin(async move {
            Box::pin(self.run(tool, &entry, params, &ctx))
                .await
                .map(ToolExecution::output_only)
        })
    }

    fn list_specs(&self) -> SpecList {
        Arc::clone(&self.specs)
    }
}
