use tool_executor::agent::{A2aResult, Agent as _, AgentExecutor, EventQueueWriter, RequestContext};

struct Agent;

/// Echoes.
#[tool_executor::agent(nmae = "Echo", skill(id = "echo", tags = ["echo"]))]
impl Agent {
    async fn execute(&self, _ctx: &RequestContext, _queue: &dyn EventQueueWriter) -> A2aResult<()> {
        Ok(())
    }

    fn greeting(&self) -> &'static str {
        "hello"
    }
}

fn main() {
    // Only the unknown key above is reported: the block is still emitted, and so are stand-in
    // card and executor impls, so using them adds no errors.
    let _: &str = Agent.greeting();
    let _ = Agent::agent_card("http://localhost:1");
    let _ = Agent.card("http://localhost:1");
    let _: &dyn AgentExecutor = &Agent;
}
