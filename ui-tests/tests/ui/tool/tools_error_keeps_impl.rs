use tool_executor::prelude::*;

/// A service.
pub struct Service;

#[tools]
impl Service {
    /// Answers.
    #[tool(read_onyl)]
    fn ping(&self) -> &'static str {
        "pong"
    }

    fn helper(&self) -> u8 {
        1
    }
}

fn main() {
    // Only the unknown key above is reported: the block is still emitted, and so is a
    // stand-in executor impl, so calling its methods and serving it add no errors.
    let _: &str = Service.ping();
    let _: u8 = Service.helper();
    let _tools = ToolSet::builder().executor(Service).build();
}
