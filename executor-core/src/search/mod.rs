//! Tool search for large sets: a BM25 index over tool specs ([`ToolIndex`]) and an executor
//! that lists one `search_tools` tool in front of any other ([`SearchTools`]), so a model sees
//! a few tools and finds the rest by what it wants to do.
//!
//! For OpenAI Responses and Anthropic, which search deferred tools themselves, mark the
//! definitions instead: [`Definitions::defer_loading`](crate::provider::Definitions::defer_loading).

mod index;
mod tools;

pub use index::{SearchHit, ToolIndex};
pub use tools::{
    DEFAULT_RESULTS, MAX_QUERY_CHARS, MAX_RESULTS, NotServed, SEARCH_TOOL, SearchTools,
};
