use tool_executor::agent::{A2aResult, EventQueueWriter, RequestContext};

struct Agent;

/// An agent without work.
#[tool_executor::agent(skill(id = "nothing", tags = ["idle"]))]
impl Agent {
    async fn cancel(&self, _ctx: &RequestContext, _queue: &dyn EventQueueWriter) -> A2aResult<()> {
        Ok(())
    }
}

fn main() {}
