use tool_executor::prelude::*;

/// Deletes a file.
#[tool(tags = ["admin", "files", "admin"])]
async fn delete(path: String) -> String {
    path
}

// The item is still emitted: this use of it compiles.
fn main() {
    let _ = delete(String::new());
}
