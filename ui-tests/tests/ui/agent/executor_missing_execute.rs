struct Agent;

tool_executor::agent_executor!(Agent,
    cancel: |_ctx, _queue| async { Ok(()) },
);

fn main() {}
