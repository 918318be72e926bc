struct Agent;

tool_executor::agent_executor!(crate = tool_executor; Agent, |_ctx, _queue| async { Ok(()) });

fn main() {}
