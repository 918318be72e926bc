/// Echoes.
#[tool_executor::agent(skill(id = "echo", tags = ["echo"]))]
struct Agent;

fn main() {}
