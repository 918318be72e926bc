struct Agent;

tool_executor::agent_executor!(Agent, |_ctx, _queue| {
    Ok(())
});

fn main() {}
