struct Agent;

async fn run() -> tool_executor::agent::A2aResult<()> {
    Ok(())
}

tool_executor::agent_executor!(Agent, execute: run);

fn main() {}
