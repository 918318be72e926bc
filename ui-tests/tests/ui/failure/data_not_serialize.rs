use tool_executor::prelude::*;

struct Connection;

#[derive(Debug, ToolFailure)]
enum E {
    #[failure(data)]
    Busy { queue: u32, connection: Connection },
}

impl std::fmt::Debug for Connection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Connection")
    }
}

impl std::fmt::Display for E {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("e")
    }
}

fn main() {}
