use tool_executor::prelude::*;

/// Deletes a file.
#[tool(tags = "admin")]
async fn delete(path: String) -> String {
    path
}

fn main() {}
