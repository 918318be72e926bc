//! Generated code uses absolute paths only: local items named like std's or ours change
//! nothing, and strict lints stay quiet.
#![deny(missing_docs, unused_qualifications, unused_imports, dead_code)]

#[allow(dead_code)] // present only to shadow `::core`
mod core {}
#[allow(dead_code)] // present only to shadow `::serde_json`
mod serde_json {}
#[allow(dead_code)] // present only to shadow `::schemars`
mod schemars {}
#[allow(dead_code)] // shadows the prelude's `Box`
struct Box;
#[allow(dead_code)] // shadows `Value`
struct Value;
#[allow(dead_code)] // shadows `Arc`
struct Arc;
#[allow(dead_code)] // named like the alias every expansion opens with
mod __rt {}

use tool_executor::{ToolContext, tool, tools, toolset};

/// Adds two numbers.
#[tool(read_only, timeout = "1s")]
pub async fn add(
    /// The first addend.
    a: i64,
    /// The second addend.
    #[arg(default)]
    b: i64,
    ctx: &ToolContext,
) -> Result<i64, String> {
    let _ = ctx.attempt();
    Ok(a + b)
}

/// Greets, borrowing.
#[tool]
pub fn greet(name: &str, names: &[&str]) -> String {
    format!("{name} {}", names.len())
}

/// A service.
pub struct Service;

#[tools]
impl Service {
    /// Pings.
    #[tool]
    pub async fn ping(&self) -> &'static str {
        "pong"
    }
}

fn main() {
    let _tools = toolset![add, greet];
    let _service = Service;
}
