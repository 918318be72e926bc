use tool_executor::agent::{A2aResult, EventQueueWriter, RequestContext};

struct Agent;

/// Echoes.
#[tool_executor::agent(
    skill(id = "echo", tags = ["echo"]),
    skill(id = "echo", name = "Echo again", tags = ["echo"]),
)]
impl Agent {
    async fn execute(&self, _ctx: &RequestContext, _queue: &dyn EventQueueWriter) -> A2aResult<()> {
        Ok(())
    }
}

fn main() {}
