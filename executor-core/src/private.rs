//! Everything generated code needs and users should not name: re-exports only, as serde's
//! `__private` (the items live with the code they serve). Not covered by semver; the macro
//! crate is pinned to this exact version of the runtime. The runtime never imports it.

pub use ::core;
pub use ::core::option::Option::{self, None, Some};
pub use ::core::result::Result::{self, Err, Ok};
pub use ::schemars;
pub use ::serde;
pub use ::serde_json;
pub use ::serde_json::{Map, Value};
pub use ::std::boxed::Box;
pub use ::std::sync::{Arc, OnceLock};
pub use ::std::time::Duration;
pub use ::tokio::sync::mpsc::Receiver;

pub use crate::elicit::{
    Answers, ChoiceStyle, Field, Form, FormChoice, FormError, FormField, approve, approve_blocking,
    choice_decode, choice_schema,
};
pub use crate::failure::support::{
    AttachDebug, AttachError, AttachNone, AttachOwned, CodesProbe, DerivedCodes, NoCodes,
    SourceProbe, data_value, failure_message,
};
pub use crate::schema::support::literal;
pub use crate::schema::{InputSchema, output_schema};
pub use crate::tool::call::args::{
    Failures, IntoToolFailure, Listed, ToolArgument, ToolOutput, again, arguments, decode,
    describe, encode, failures, first, first_or_default, first_or_else, missing, or_default,
    or_else, required, unknown,
};
pub use crate::tool::call::{
    ResultParts, call_blocking, call_context_free, context_free_output, drive, finish,
};
pub use crate::tool::fn_tool::{FnTool, cached_spec};
pub use crate::tool::route::unserved;
pub use crate::tool::set::{check_unique_name, tool_set};
pub use crate::tool::stream_task::{StreamByClone, StreamProbe, StreamUnsupported};

// The public items generated code names, so every path in an expansion starts `__rt::` (each
// expansion opens with `use ::tool_executor::__private as __rt;`).
pub use crate::catalog::args::{catalog_arg, unknown_entry};
pub use crate::catalog::resource::template;
pub use crate::catalog::{
    CatalogEntry, CatalogItem, IntoContents, IntoPromptResult, Prompt, PromptArgument,
    PromptResult, PromptSpec, Prompts, Resource, ResourceSpec, ResourceUri, Resources, UriTemplate,
};
pub use crate::failure::{FailureCodes, FailureKind, ToolFailure};
pub use crate::task::{TaskSpec, TaskSupport};
pub use crate::tool::{
    BoxFuture, ContextExecutor, SpecList, Tool, ToolAnnotations, ToolContext, ToolExecution,
    ToolSpec, ToolStreamChunk,
};
pub use crate::tool::{Icon, ResourceContents};
pub use ::core::default::Default;
pub use ::std::borrow::Cow;
pub use ::std::string::String;
pub use ::std::vec;
pub use ::std::vec::Vec;

/// What `agent_executor!` and `#[agent]` expand to.
#[cfg(feature = "a2a")]
pub mod a2a {
    pub use crate::agent::{
        A2aResult, Agent, AgentCard, AgentExecutor, CardSpec, EventQueueWriter, RequestContext,
        SkillSpec, TaskQueue, default_cancel, run_cancel, run_execute, run_shutdown,
    };
}

/// What `car_executor!` expands to.
#[cfg(feature = "car-ir")]
pub mod car {
    pub use crate::car::bridge::{Seed, classified, output, schemas, stateful, stream};
    pub use ::car_ir;
    pub use ::std::collections::HashMap;
}
