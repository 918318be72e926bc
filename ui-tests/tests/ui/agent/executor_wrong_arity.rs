struct Agent;

tool_executor::agent_executor!(Agent, |ctx| async move {
    let _ = ctx;
    Ok(())
});

fn main() {}
