//! A composed tool set served over MCP on stdio: the same tools as a plain set, transformed.
//!
//! - `read_file` is served as `cat` with a new description, and its `verbose` argument hidden
//!   (the tool's own default applies);
//! - `delete_file` is tagged `admin` and hidden until `unlock` is called: then it appears, and
//!   connected clients get `notifications/tools/list_changed`; `unlock` also adds the
//!   `admin_help` prompt to the served catalog (`notifications/prompts/list_changed`);
//! - a guardrail hook refuses any path under `/etc` with a typed failure (`isError: true`).
//!
//! ```text
//! cargo run -p examples --example composed_server     # then speak MCP on stdin/stdout
//! ```
//!
//! `.ci/mcp-peer.sh` drives it with the official Python client
//! (`executor-core/tests/peers/mcp/composed_client.py`).

use serde_json::Value;
use tool_executor::ToolSet;
use tool_executor::catalog::{Catalog, CatalogEditor};
use tool_executor::prelude::*;
use tool_executor::transform::{BeforeCall, Transform, Transformed, Visibility};

/// Reads a file.
#[tool(read_only, tags = ["files"])]
fn read_file(
    /// The path to read.
    path: &str,
    /// Add the path to the output.
    #[arg(default)]
    verbose: bool,
) -> String {
    if verbose {
        format!("{path}: contents of {path}")
    } else {
        format!("contents of {path}")
    }
}

/// Deletes a file.
#[tool(destructive, tags = ["files", "admin"])]
fn delete_file(
    /// The path to delete.
    path: &str,
) -> String {
    format!("deleted {path}")
}

/// How to use the admin tools.
#[prompt]
fn admin_help() -> String {
    "Delete files with `delete_file`; it cannot be undone.".to_owned()
}

/// The admin switch: shows the `admin` tools and their prompt.
struct Admin {
    visibility: Visibility,
    catalog: CatalogEditor,
}

#[tools]
impl Admin {
    /// Shows the admin tools (`delete_file`) and the `admin_help` prompt to every client.
    #[tool]
    fn unlock(&self) -> String {
        self.visibility.enable_tag("admin");
        self.catalog.add::<admin_help>();
        "admin tools unlocked".to_owned()
    }
}

/// Refuses any call whose `path` is under `/etc`.
#[allow(clippy::result_large_err)] // a hook answers with the failure itself
fn guardrail(call: &mut BeforeCall<'_>) -> Result<(), ToolFailure> {
    match call.args().get("path").and_then(Value::as_str) {
        Some(path) if path.starts_with("/etc") => Err(ToolFailure::terminal(format!(
            "`{}` may not touch {path}",
            call.spec().name
        ))
        .with_code("guardrail")),
        _ => Ok(()),
    }
}

/// The composed set; `catalog` is where `unlock` adds its prompt.
fn tools(catalog: CatalogEditor) -> Transformed<ToolSet> {
    let visibility = Visibility::new();
    visibility.disable_tag("admin");
    let set = ToolSet::builder()
        .tool::<read_file>()
        .tool::<delete_file>()
        .executor(Admin {
            visibility: visibility.clone(),
            catalog,
        })
        .build()
        .expect("distinct names");
    Transform::new(set)
        .rename("read_file", "cat")
        .describe("read_file", "Prints a file.")
        .hide_arg("read_file", "verbose")
        .visibility(visibility)
        .before(guardrail)
        .build()
        .expect("valid transforms")
}

#[tokio::main]
async fn main() -> std::io::Result<()> {
    // Empty until `unlock`; its editor makes it one that changes (`listChanged: true`).
    let catalog = Catalog::new();
    let tools = tools(catalog.editor());
    tool_executor::mcp_server!(tools)
        .with_catalog(catalog)
        .serve_stdio()
        .await
}
