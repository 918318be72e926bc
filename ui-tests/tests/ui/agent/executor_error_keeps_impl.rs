use tool_executor::agent::AgentExecutor;

struct Agent;

tool_executor::agent_executor!(Agent,
    execute: |_ctx, _queue| async { Ok(()) },
    cancle: |_ctx, _queue| async { Ok(()) },
);

fn main() {
    // Only the unknown arm above is reported: a stand-in impl is still emitted, so serving
    // the agent adds no errors.
    let _: &dyn AgentExecutor = &Agent;
}
