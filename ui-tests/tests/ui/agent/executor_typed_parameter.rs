use tool_executor::agent::RequestContext;

struct Agent;

tool_executor::agent_executor!(Agent, |ctx: &RequestContext, _queue| async move {
    let _ = ctx;
    Ok(())
});

fn main() {}
