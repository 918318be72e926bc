//! A tool's spec is reachable as `add::spec()` without importing the `Tool` trait, and
//! `description = ""` leaves the description empty on purpose.
#![deny(missing_docs)]

use tool_executor::tool;

/// Adds.
#[tool(read_only)]
pub fn add(a: i64, b: i64) -> i64 {
    a + b
}

#[tool(description = "")]
fn quiet() {}

fn main() {
    let spec = add::spec();
    assert_eq!(spec.name, "add");
    assert_eq!(spec.description, "Adds.");
    assert_eq!(spec.annotations.read_only, Some(true));
    assert!(std::ptr::eq(spec, add::spec()), "built once and shared");
    assert_eq!(quiet::spec().description, "");
}
