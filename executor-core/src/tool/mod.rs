//! The tool model: the executor trait, specs, context, stream chunks and tool sets.

pub(crate) mod context;
pub(crate) mod drive;
pub(crate) mod executor;
pub(crate) mod set;
pub(crate) mod spec;
pub(crate) mod stream;

pub use context::ToolContext;
pub use executor::{BoxFuture, SpecList, ToolExecution, ToolExecutor};
pub use set::{DuplicateTool, FnTool, PlainFn, Tool, ToolSet, ToolSetBuilder, spawn_stream};
pub use spec::{ToolAnnotations, ToolSpec};
pub use stream::{STREAM_CAPACITY, ToolStreamChunk};
