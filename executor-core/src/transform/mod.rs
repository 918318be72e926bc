//! Tool sets that compose: transforms, visibility and hooks over any executor.
//!
//! [`Transform`] wraps any [`ToolExecutor`](crate::ToolExecutor) (a
//! [`ToolSet`](crate::ToolSet), a `#[tools]` service, an MCP or A2A client) into a
//! [`Transformed`] set:
//!
//! - **transforms**: rename, namespace prefix, description, title, hints; per argument hide
//!   (the tool's default), fix, default, bind from the call's context, rename, describe. The
//!   listed specs are re-derived, so MCP `tools/list`, the A2A card and provider definitions
//!   show the result; calls are mapped back. A transform that cannot apply is a
//!   [`TransformError`] when the set is built.
//! - **[`Visibility`]**: enable or disable tools by name or tag (`#[tool(tags = […])]`) and
//!   per caller (the [`Principal`](crate::auth::Principal)'s scopes, or any rule over the
//!   context); a hidden tool is absent from every listing and refused as unknown. Changes
//!   reach MCP clients as `notifications/tools/list_changed` ([`ListChanges`](crate::tool::ListChanges)).
//! - **hooks**: [`BeforeHook`] (guardrails: inspect, rewrite or refuse) and [`AfterHook`]
//!   (inspect or rewrite the outcome, redact), in the order added, around every call,
//!   sync, async and streamed alike.
//!
//! Nothing here costs a set that uses none of it: such a set is not wrapped. What one hook
//! costs is measured in BENCHMARKS.md §16.
//!
//! | file | what is in it |
//! |---|---|
//! | `build.rs` | [`Transform`], the builder, and its checks |
//! | `set.rs` | [`Transformed`]: listing and the call path |
//! | `args.rs` | argument transforms: the schema rewrite and the call mapping |
//! | `visibility.rs` | [`Visibility`] |
//! | `hook.rs` | [`BeforeHook`], [`AfterHook`], what they see |
//! | `error.rs` | [`TransformError`] |
//!
//! ```
//! use tool_executor::prelude::*;
//! use tool_executor::transform::{Transform, Visibility};
//!
//! /// Deletes a file.
//! #[tool(tags = ["admin"])]
//! fn delete(path: String) -> String { format!("deleted {path}") }
//! /// Reads a file.
//! #[tool]
//! fn read(path: String) -> String { format!("contents of {path}") }
//!
//! # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
//! let visibility = Visibility::new();
//! visibility.disable_tag("admin");
//! let tools = Transform::new(toolset![delete, read])
//!     .rename("read", "cat")
//!     .visibility(visibility)
//!     .before(|call: &mut tool_executor::transform::BeforeCall<'_>| {
//!         match call.args()["path"].as_str() {
//!             Some(path) if path.starts_with("/etc") => {
//!                 Err(ToolFailure::terminal("not under /etc").with_code("guardrail"))
//!             }
//!             _ => Ok(()),
//!         }
//!     })
//!     .build()
//!     .unwrap();
//! assert_eq!(tools.specs().len(), 1);
//! assert_eq!(tools.execute("cat", &json!({"path": "a"})).await, Ok(json!("contents of a")));
//! assert!(tools.execute("delete", &json!({"path": "a"})).await.is_err());
//! assert_eq!(tools.execute("cat", &json!({"path": "/etc/passwd"})).await, Err("not under /etc".into()));
//! # });
//! ```

mod args;
mod build;
mod error;
mod hook;
mod set;
mod visibility;

pub use args::Binder;
pub use build::Transform;
pub use error::TransformError;
pub use hook::{AfterCall, AfterHook, BeforeCall, BeforeHook, Caller};
pub use set::Transformed;
pub use visibility::{CallerRule, Visibility};
