use tool_executor::prelude::*;

/// Deletes a file.
#[tool(tags = ["admin", files])]
async fn delete(path: String) -> String {
    path
}

fn main() {}
