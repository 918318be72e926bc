use executor_core::agent::{A2aResult, EventQueueWriter, RequestContext};

struct Agent;

/// Echoes.
#[executor_core::agent(skill(id = "echo", tags = ["echo"]))]
impl Default for Agent {
    fn default() -> Self {
        Agent
    }
}

fn main() {}
