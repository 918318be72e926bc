struct Agent;

executor_core::agent_executor!(Agent, |ctx| async move {
    let _ = ctx;
    Ok(())
});

fn main() {}
