use executor_core::agent::RequestContext;

struct Agent;

executor_core::agent_executor!(Agent, |ctx: &RequestContext, _queue| async move {
    let _ = ctx;
    Ok(())
});

fn main() {}
