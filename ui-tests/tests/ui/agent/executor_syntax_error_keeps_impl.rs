use tool_executor::agent::AgentExecutor;

struct Agent;

tool_executor::agent_executor!(Agent, |_ctx, _queue| async { Ok(()) } extra);

fn main() {
    // Only the syntax error above is reported: once the type is read, a stand-in impl is
    // emitted, so serving the agent adds no errors.
    let _: &dyn AgentExecutor = &Agent;
}
