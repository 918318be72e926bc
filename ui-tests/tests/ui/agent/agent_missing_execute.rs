use executor_core::agent::{A2aResult, EventQueueWriter, RequestContext};

struct Agent;

/// An agent without work.
#[executor_core::agent(skill(id = "nothing", tags = ["idle"]))]
impl Agent {
    async fn cancel(&self, _ctx: &RequestContext, _queue: &dyn EventQueueWriter) -> A2aResult<()> {
        Ok(())
    }
}

fn main() {}
