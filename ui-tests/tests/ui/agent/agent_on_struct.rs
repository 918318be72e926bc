/// Echoes.
#[executor_core::agent(skill(id = "echo", tags = ["echo"]))]
struct Agent;

fn main() {}
