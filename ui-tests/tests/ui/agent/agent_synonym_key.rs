use tool_executor::agent::{A2aResult, EventQueueWriter, RequestContext};

struct Agent;

/// Echoes. The A2A card field is `streaming`; `stream` is a near miss.
#[tool_executor::agent(stream, skill(id = "echo", tags = ["echo"]))]
impl Agent {
    async fn execute(&self, _ctx: &RequestContext, _queue: &dyn EventQueueWriter) -> A2aResult<()> {
        Ok(())
    }
}

fn main() {}
