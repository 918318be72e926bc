struct Agent;

tool_executor::agent_executor!(Agent,
    execute: |_ctx, _queue| async { Ok(()) },
    cancle: |_ctx, _queue| async { Ok(()) },
);

fn main() {}
