//! [`SearchTools`]: any executor behind one `search_tools` tool, so a model sees a few tools
//! and finds the rest.

use std::fmt;
use std::sync::Arc;

use serde_json::{Map, Value, json};
use tokio::sync::mpsc;

use super::index::ToolIndex;
use crate::failure::ToolFailure;
use crate::tool::stream::stream_unsupported;
use crate::tool::{
    BoxFuture, ContextExecutor, DuplicateTool, SpecList, ToolAnnotations, ToolContext,
    ToolExecution, ToolExecutor, ToolSpec, ToolStreamChunk,
};

/// The meta-tool's name.
pub const SEARCH_TOOL: &str = "search_tools";

/// The longest query accepted, in characters.
pub const MAX_QUERY_CHARS: usize = 1000;

/// How many tools a search returns when the call does not say.
pub const DEFAULT_RESULTS: usize = 5;

/// The most tools one search may return.
pub const MAX_RESULTS: usize = 50;

/// A name given to [`SearchTools::listing`] that the wrapped executor does not list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotServed(pub String);

impl fmt::Display for NotServed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "`{}` is not a tool of the wrapped executor, so it cannot be listed",
            self.0
        )
    }
}

impl std::error::Error for NotServed {}

/// An executor whose listing is one tool, `search_tools` (plus any you name), and which
/// serves every tool of the executor it wraps: the model searches by what it wants to do,
/// gets the best matches with their input schemas (BM25 over name, title, description and
/// parameters, [`ToolIndex`]) and calls them by name. Over MCP or A2A a client lists a few
/// tools whatever the size of the set; for the providers that defer loading themselves see
/// [`Definitions::defer_loading`](crate::provider::Definitions::defer_loading).
///
/// ```
/// use std::sync::Arc;
/// use tool_executor::prelude::*;
/// use tool_executor::search::SearchTools;
///
/// /// Current weather for a city.
/// #[tool]
/// fn weather(city: String) -> String { format!("sunny in {city}") }
/// /// Sends an email.
/// #[tool]
/// fn send_email(to: String, body: String) -> bool { !to.is_empty() && !body.is_empty() }
///
/// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
/// let tools = SearchTools::new(Arc::new(toolset![weather, send_email])).unwrap();
/// let names: Vec<String> = tools.specs().iter().map(|s| s.name.clone()).collect();
/// assert_eq!(names, ["search_tools"]);
///
/// let found = tools.execute("search_tools", &json!({"query": "weather forecast"})).await.unwrap();
/// assert_eq!(found["tools"][0]["name"], "weather");
/// assert_eq!(found["tools"][0]["inputSchema"]["required"], json!(["city"]));
/// // Every tool is still callable by name.
/// assert_eq!(tools.execute("weather", &json!({"city": "Oslo"})).await, Ok(json!("sunny in Oslo")));
/// # });
/// ```
pub struct SearchTools {
    inner: Arc<dyn ToolExecutor>,
    index: ToolIndex,
    listed: SpecList,
    max_results: usize,
}

impl fmt::Debug for SearchTools {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SearchTools")
            .field("index", &self.index)
            .field("listed", &self.listed.len())
            .field("max_results", &self.max_results)
            .finish_non_exhaustive()
    }
}

impl SearchTools {
    /// `inner`'s tools behind `search_tools`; its specs are read (and indexed) once, here.
    ///
    /// # Errors
    /// [`DuplicateTool`] when `inner` already has a tool named `search_tools`.
    pub fn new(inner: Arc<dyn ToolExecutor>) -> Result<Self, DuplicateTool> {
        let specs = inner.specs();
        if specs.iter().any(|s| s.name == SEARCH_TOOL) {
            return Err(DuplicateTool(SEARCH_TOOL.to_owned()));
        }
        let index = ToolIndex::new(specs.iter().cloned());
        Ok(Self {
            inner,
            index,
            listed: Arc::from(vec![Arc::new(spec(MAX_RESULTS))]),
            max_results: MAX_RESULTS,
        })
    }

    /// Lists these tools of the wrapped executor beside `search_tools` (those the model
    /// needs at every turn).
    ///
    /// # Errors
    /// [`NotServed`] for a name the wrapped executor does not list.
    pub fn listing<I, S>(mut self, names: I) -> Result<Self, NotServed>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        let specs = self.inner.specs();
        let mut listed: Vec<Arc<ToolSpec>> = self.listed.to_vec();
        for name in names {
            let name = name.as_ref();
            let found = specs.iter().find(|s| s.name == name);
            let spec = found.ok_or_else(|| NotServed(name.to_owned()))?;
            if !listed.iter().any(|s| s.name == name) {
                listed.push(Arc::clone(spec));
            }
        }
        self.listed = listed.into();
        Ok(self)
    }

    /// The most tools one search returns (1 to [`MAX_RESULTS`]; the default is
    /// [`MAX_RESULTS`], and a call asks for [`DEFAULT_RESULTS`] unless it gives `limit`).
    #[must_use]
    pub fn max_results(mut self, max: usize) -> Self {
        self.max_results = max.clamp(1, MAX_RESULTS);
        let mut listed = self.listed.to_vec();
        listed[0] = Arc::new(spec(self.max_results));
        self.listed = listed.into();
        self
    }

    /// The index searches run on.
    #[must_use]
    pub fn index(&self) -> &ToolIndex {
        &self.index
    }

    /// Answers one `search_tools` call.
    fn search(&self, params: &Value) -> Result<ToolExecution, ToolFailure> {
        let args = params
            .as_object()
            .ok_or_else(|| ToolFailure::invalid_arguments("expected an object of arguments"))?;
        if let Some(key) = args.keys().find(|k| *k != "query" && *k != "limit") {
            let message = format!("unknown argument `{key}`; expected `query` and `limit`");
            return Err(ToolFailure::invalid_arguments(message));
        }
        let query = match args.get("query") {
            Some(Value::String(q)) if q.chars().count() <= MAX_QUERY_CHARS => q,
            Some(Value::String(_)) => {
                let message = format!("query: longer than {MAX_QUERY_CHARS} characters");
                return Err(ToolFailure::invalid_arguments(message));
            }
            Some(_) => return Err(ToolFailure::invalid_arguments("query: expected a string")),
            None => return Err(ToolFailure::invalid_arguments("missing argument `query`")),
        };
        let limit = match args.get("limit") {
            None | Some(Value::Null) => DEFAULT_RESULTS.min(self.max_results),
            Some(limit) => limit
                .as_u64()
                .and_then(|n| usize::try_from(n).ok())
                .filter(|n| (1..=self.max_results).contains(n))
                .ok_or_else(|| {
                    let max = self.max_results;
                    ToolFailure::invalid_arguments(format!(
                        "limit: expected an integer from 1 to {max}"
                    ))
                })?,
        };
        let tools: Vec<Value> = self
            .index
            .search(query, limit)
            .into_iter()
            .map(|hit| {
                let mut tool = Map::new();
                tool.insert("name".into(), hit.spec.name.clone().into());
                if let Some(title) = &hit.spec.annotations.title {
                    tool.insert("title".into(), title.clone().into());
                }
                tool.insert("description".into(), hit.spec.description.clone().into());
                tool.insert("inputSchema".into(), hit.spec.input_schema.clone());
                Value::Object(tool)
            })
            .collect();
        Ok(ToolExecution::output_only(json!({ "tools": tools })))
    }
}

impl ContextExecutor for SearchTools {
    fn dispatch<'a>(
        &'a self,
        tool: &'a str,
        params: &'a Value,
        ctx: ToolContext,
    ) -> BoxFuture<'a, Result<ToolExecution, ToolFailure>> {
        if tool == SEARCH_TOOL {
            Box::pin(std::future::ready(self.search(params)))
        } else {
            self.inner.execute_with_context(tool, params, ctx)
        }
    }

    fn stream<'a>(
        &'a self,
        tool: &'a str,
        params: &'a Value,
        action_id: &'a str,
    ) -> BoxFuture<'a, Result<mpsc::Receiver<ToolStreamChunk>, String>> {
        if tool == SEARCH_TOOL {
            Box::pin(std::future::ready(Err(stream_unsupported(tool))))
        } else {
            self.inner.execute_stream(tool, params, action_id)
        }
    }

    fn list_specs(&self) -> SpecList {
        Arc::clone(&self.listed)
    }
}

/// The `search_tools` spec, its `limit` bounded by `max`.
fn spec(max: usize) -> ToolSpec {
    let input = json!({
        "type": "object",
        "properties": {
            "query": {
                "type": "string",
                "maxLength": MAX_QUERY_CHARS,
                "description": "What you want a tool to do, in a few words (for example \
                                `weather forecast for a city`)."
            },
            "limit": {
                "type": "integer",
                "minimum": 1,
                "maximum": max,
                "description": format!("How many tools to return (default {}).", DEFAULT_RESULTS.min(max))
            }
        },
        "required": ["query"],
        "additionalProperties": false
    });
    let output = json!({
        "type": "object",
        "properties": {
            "tools": {
                "type": "array",
                "description": "The best matches first; call any of them by its name.",
                "items": {
                    "type": "object",
                    "properties": {
                        "name": {"type": "string"},
                        "title": {"type": "string"},
                        "description": {"type": "string"},
                        "inputSchema": {"type": "object"}
                    },
                    "required": ["name", "description", "inputSchema"]
                }
            }
        },
        "required": ["tools"]
    });
    let annotations = ToolAnnotations {
        title: Some("Search tools".into()),
        read_only: Some(true),
        destructive: Some(false),
        idempotent: Some(true),
        open_world: Some(false),
    };
    ToolSpec::new(
        SEARCH_TOOL,
        "Finds the tools that can do what you describe, with the arguments each takes. More \
         tools exist than are listed: search here first, then call a tool you found by its name.",
        input,
    )
    .with_output_schema(output)
    .with_annotations(annotations)
}
