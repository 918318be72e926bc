struct Agent;

tool_executor::agent_executor!(Agent,
    execute: |_ctx, _queue| async { Ok(()) },
    on_shutdown: |_ctx| async {},
);

fn main() {}
