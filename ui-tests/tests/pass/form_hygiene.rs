//! `#[derive(Form)]` uses absolute paths only, works through a re-export with `crate = …`,
//! and keeps `missing_docs` and `unused_qualifications` quiet.
#![deny(missing_docs, unused_qualifications)]

/// A module named like `core` must not capture the generated paths.
mod core {}

/// The runtime under another name.
pub mod reexport {
    pub use ::tool_executor as tool_executor;
}

use tool_executor::elicit::Form;

/// A choice through the re-export.
#[derive(Form)]
#[form(crate = crate::reexport::tool_executor)]
pub enum Size {
    /// Small
    S,
    /// Large
    L,
}

/// A form through the re-export.
#[derive(Form)]
#[form(crate = crate::reexport::tool_executor)]
pub struct Order {
    /// How many.
    #[form(min = 1, default = 1)]
    pub count: u32,
    /// Which sizes.
    pub sizes: Vec<Size>,
}

fn main() {
    let _ = Order::schema();
}

/// Defaults typed by their field: a string literal for text, a bare literal for a number.
#[derive(Form)]
pub struct Defaults {
    /// A name.
    #[form(default = "Ada")]
    pub name: Option<String>,
    /// A count.
    #[form(default = 3)]
    pub count: u64,
}
