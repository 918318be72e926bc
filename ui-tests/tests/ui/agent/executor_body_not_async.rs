struct Agent;

executor_core::agent_executor!(Agent, |_ctx, _queue| {
    Ok(())
});

fn main() {}
