//! The tool model: the executor traits, specs, context, the call path, stream chunks and tool
//! sets.
//!
//! | file | what is in it |
//! |---|---|
//! | `executor.rs` | [`ToolExecutor`], the seed contract |
//! | `execution.rs` | what executor methods return: [`BoxFuture`], [`SpecList`], [`ToolExecution`] |
//! | `context_executor.rs` | [`ContextExecutor`], the one path, and the blanket `impl ToolExecutor` |
//! | `content.rs` | rich results: [`Content`] blocks ([`Image`], [`Audio`], [`ResourceLink`], [`EmbeddedResource`]) with [`Annotations`] |
//! | `log.rs` | [`LogLevel`], [`LogSink`], [`Logger`]: what [`ToolContext::log`] sends through |
//! | `context.rs` | [`ToolContext`] and [`ChunkDropped`] |
//! | `trace_context.rs` | [`TraceContext`]: the W3C trace a call carries from hop to hop |
//! | `span.rs` | spans for requests served and sent (feature `tracing`), named by the OpenTelemetry MCP and `GenAI` conventions |
//! | `extensions.rs` | [`Extensions`]: typed values a transport attaches to a call; [`RequestHeaders`] |
//! | `call/` | the call path: argument decoding, the panic boundary, deadlines and cancellation, sync tools on the blocking pool and their bound ([`set_max_blocking_bodies`]) |
//! | `fn_tool.rs` | [`Tool`] (what `#[tool]` implements) and the tool-as-a-value entry |
//! | `listing.rs` | [`ListChanges`]: when an executor's listing changes at run time |
//! | `route.rs` | the name lookup table and the rule for a name an executor does not serve |
//! | `set.rs` | [`ToolSet`] and [`ToolSetBuilder`] |
//! | `stream_task.rs` | [`spawn_stream`]: a call in a task, its chunks on a bounded channel |
//! | `spec.rs`, `stream.rs` | [`ToolSpec`] and [`ToolStreamChunk`] |

pub(crate) mod call;
pub(crate) mod content;
pub(crate) mod context;
pub(crate) mod context_executor;
pub(crate) mod execution;
pub(crate) mod executor;
pub(crate) mod extensions;
pub(crate) mod fn_tool;
pub(crate) mod listing;
pub(crate) mod log;
pub(crate) mod route;
pub(crate) mod set;
#[cfg(feature = "tracing")]
pub(crate) mod span;
pub(crate) mod spec;
pub(crate) mod stream;
pub(crate) mod stream_task;
pub(crate) mod trace_context;

pub use call::{
    BlockingBodies, CatchUnwind, DEFAULT_MAX_BLOCKING_BODIES, Panic, blocking_bodies,
    max_blocking_bodies, set_max_blocking_bodies,
};
pub use content::{
    Annotations, Audio, CONTENT_SCHEMA_KEY, Content, EmbeddedResource, Icon, Image, Media,
    ResourceContents, ResourceLink, Role, Text,
};
pub use context::{ChunkDropped, ToolContext};
pub use context_executor::ContextExecutor;
pub use execution::{BoxFuture, SpecList, ToolExecution};
pub use executor::ToolExecutor;
pub use extensions::{Extensions, RequestHeaders};
pub use fn_tool::Tool;
pub use listing::ListChanges;
pub use log::{LogLevel, LogSink, Logger};
pub use set::{DuplicateTool, ToolSet, ToolSetBuilder};
pub use spec::{ToolAnnotations, ToolSpec};
pub use stream::{STREAM_CAPACITY, ToolStreamChunk};
pub use stream_task::spawn_stream;
pub use trace_context::TraceContext;
