use tool_executor::prelude::*;

/// Decodable, but with no JSON Schema for the model.
#[derive(serde::Deserialize)]
pub struct Point {
    pub x: f64,
    pub y: f64,
}

/// Takes a point.
#[tool]
fn norm(point: Point) -> f64 {
    point.x.hypot(point.y)
}

fn main() {}
