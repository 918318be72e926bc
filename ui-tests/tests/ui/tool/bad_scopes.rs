use tool_executor::prelude::*;

/// Deletes a note.
#[tool(scopes = "notes:write,notes\"admin")]
fn delete_note(id: u64) -> bool {
    id > 0
}

/// Reads a note.
#[tool(scopes = "  ")]
fn read_note(id: u64) -> u64 {
    id
}

fn main() {
    // The functions are still emitted: calling them compiles.
    let _ = delete_note(1);
    let _ = read_note(1);
}
