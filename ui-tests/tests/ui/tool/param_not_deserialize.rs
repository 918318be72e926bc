use tool_executor::prelude::*;

/// Not decodable.
pub struct Opaque;

/// Takes something that cannot be decoded.
#[tool]
fn take(value: Opaque) -> u8 {
    let _ = value;
    0
}

fn main() {}
