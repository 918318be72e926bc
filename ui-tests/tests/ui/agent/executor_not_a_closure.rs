struct Agent;

async fn run() -> executor_core::agent::A2aResult<()> {
    Ok(())
}

executor_core::agent_executor!(Agent, execute: run);

fn main() {}
