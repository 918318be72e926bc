use tool_executor::agent::{A2aResult, EventQueueWriter, RequestContext};

struct Agent;

/// Echoes.
#[tool_executor::agent(skill(id = "echo", tags = ["echo"]))]
impl Default for Agent {
    fn default() -> Self {
        Agent
    }
}

fn main() {}
