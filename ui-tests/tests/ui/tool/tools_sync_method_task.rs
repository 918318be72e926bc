use tool_executor::prelude::*;

struct Disk;

#[tools]
impl Disk {
    /// Scans the disk.
    #[tool(task = "optional")]
    fn scan(&self) -> u64 {
        0
    }
}

fn main() {}
