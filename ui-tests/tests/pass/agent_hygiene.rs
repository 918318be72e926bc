//! Generated code uses absolute paths only, works through a re-export with `crate = …`, and
//! keeps `missing_docs` quiet.
#![deny(missing_docs, unused_qualifications)]

/// A module named like `core` must not capture the generated paths.
mod core {}

/// The runtime under another name.
pub mod reexport {
    pub use ::tool_executor as tool_executor;
}

use tool_executor::agent::{A2aResult, EventQueueWriter, RequestContext};

/// An agent through the re-export.
pub struct Renamed;

tool_executor::agent_executor!(crate = crate::reexport::tool_executor; Renamed, |_ctx, _queue| async { Ok(()) });

/// A generic agent.
pub struct Generic<T>(pub T);

/// Answers with its label.
#[tool_executor::agent(
    crate = crate::reexport::tool_executor,
    skill(id = "label", tags = ["label"]),
)]
impl<T: std::fmt::Display + Send + Sync + 'static> Generic<T> {
    async fn execute(&self, ctx: &RequestContext, queue: &dyn EventQueueWriter) -> A2aResult<()> {
        tool_executor::agent::Emitter::new(ctx, queue)
            .complete_with_message(self.0.to_string())
            .await
    }
}

fn main() {
    let card = Generic::<u8>::agent_card("http://localhost:1");
    assert_eq!(card.name, "Generic");
    fn is_agent<A: tool_executor::agent::Agent>(_: &A) {}
    is_agent(&Generic(1u8));
    let _: &dyn tool_executor::agent::AgentExecutor = &Renamed;
}
