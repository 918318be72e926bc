//! Who is calling: the [`Principal`] a transport authenticated, as the tool reads it.
//!
//! A transport that knows its caller (an authenticated HTTP request, the A2A call context)
//! attaches a [`Principal`] to the call's [`ToolContext`](crate::ToolContext); a tool reads it
//! with [`ToolContext::extension`](crate::ToolContext::extension) or, when it cannot run
//! without one, [`ToolContext::require_extension`](crate::ToolContext::require_extension),
//! which is a typed failure (code `missing_extension`) rather than a panic. The same tool reads
//! the same type whichever transport called it.
//!
//! | file | what is in it |
//! |---|---|
//! | `principal.rs` | [`Principal`]: subject, scopes, claims |

mod principal;

pub use principal::Principal;
