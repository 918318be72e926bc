//! Generated code under strict lints: `missing_docs`, `unused_qualifications` and all of
//! `clippy::pedantic` as errors (CI runs clippy over tests). The tools themselves are written to
//! pass these lints, so anything reported comes from the expansion.
#![deny(missing_docs, unused_qualifications, clippy::pedantic)]

use tool_executor::prelude::*;

/// A public tool: its generated struct needs docs too.
///
/// # Errors
/// When `b` is zero.
#[tool(read_only, timeout = "1s")]
pub async fn divide(
    /// Dividend.
    a: f64,
    /// Divisor.
    b: f64,
    ctx: &ToolContext,
) -> Result<f64, ToolFailure> {
    ctx.progress(1.0, None).await;
    if b == 0.0 {
        return Err(ToolFailure::terminal("division by zero").with_code("division_by_zero"));
    }
    Ok(a / b)
}

/// Borrows and defaults.
#[tool]
#[must_use]
pub fn label(name: &str, #[arg(default)] tags: &[String], suffix: Option<&str>) -> String {
    format!("{name}{}:{}", suffix.unwrap_or_default(), tags.len())
}

/// A public service.
#[derive(Clone, Debug, Default)]
pub struct Service {
    base: u64,
}

#[tools]
impl Service {
    /// Offsets a number.
    #[tool]
    #[must_use]
    pub fn offset(&self, by: u64) -> u64 {
        self.base + by
    }
}

#[test]
fn strict_lints_accept_generated_code() {
    let tools = toolset![divide, label];
    assert_eq!(tools.len(), 2);
    assert_eq!(Service::default().specs().len(), 1);
}
