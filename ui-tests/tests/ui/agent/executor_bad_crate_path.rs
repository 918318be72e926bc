struct Agent;

executor_core::agent_executor!(crate = executor_core; Agent, |_ctx, _queue| async { Ok(()) });

fn main() {}
