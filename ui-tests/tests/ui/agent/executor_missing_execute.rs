struct Agent;

executor_core::agent_executor!(Agent,
    cancel: |_ctx, _queue| async { Ok(()) },
);

fn main() {}
