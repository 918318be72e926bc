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
//! | `resource.rs` | [`ResourceServer`] (feature `oauth`): metadata, challenges, settings |
//! | `settings.rs` | what a resource server was configured with |
//! | `token.rs`, `jwks.rs`, `fetch.rs` | checking a bearer token: a JWT against the cached JWKS, or RFC 7662 introspection; `fetch.rs` the HTTP both sides share (bounded JSON reads, form POSTs with client credentials, well-known URLs, issuer metadata) |
//! | `error.rs` | [`AuthError`] and its HTTP status |
//! | `client.rs` | the client side: [`TokenProvider`], [`ClientCredentials`] (the client-credentials grant), the token request both grants share |
//! | `code.rs` | [`AuthorizationCode`]: the authorization-code grant with PKCE, registration (pre-registered, client ID metadata documents, RFC 7591), refresh and scope step-up; [`UserAgent`] |
//! | `cross_app.rs` | [`CrossAppAccess`]: enterprise-managed authorization (an identity assertion grant from the user's identity provider, exchanged for the token) |
//! | `discovery.rs` | finding a server's authorization server: RFC 9728 metadata from the challenge or the well-known paths, the resource check, RFC 8414 metadata |

#[cfg(feature = "oauth")]
mod client;
#[cfg(feature = "oauth")]
mod code;
#[cfg(feature = "oauth")]
mod cross_app;
#[cfg(feature = "oauth")]
mod discovery;
#[cfg(feature = "oauth")]
mod error;
#[cfg(feature = "oauth")]
mod fetch;
#[cfg(feature = "oauth")]
mod jwks;
mod principal;
#[cfg(feature = "oauth")]
mod resource;
#[cfg(feature = "oauth")]
mod settings;
#[cfg(feature = "oauth")]
mod token;

#[cfg(feature = "oauth")]
#[cfg_attr(docsrs, doc(cfg(feature = "oauth")))]
pub use client::{ClientCredentials, InvalidKey, TokenProvider};
#[cfg(feature = "oauth")]
#[cfg_attr(docsrs, doc(cfg(feature = "oauth")))]
pub use code::{AuthorizationCode, UserAgent};
#[cfg(feature = "oauth")]
#[cfg_attr(docsrs, doc(cfg(feature = "oauth")))]
pub use cross_app::CrossAppAccess;
#[cfg(feature = "oauth")]
#[cfg_attr(docsrs, doc(cfg(feature = "oauth")))]
pub use error::AuthError;
pub use principal::Principal;
#[cfg(feature = "oauth")]
#[cfg_attr(docsrs, doc(cfg(feature = "oauth")))]
pub use resource::{DEFAULT_JWKS_MIN_REFRESH, DEFAULT_JWKS_TTL, ResourceServer};
