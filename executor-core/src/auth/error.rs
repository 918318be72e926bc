//! `AuthError`: why a request's credentials were refused.

/// Why a request was refused by a [`ResourceServer`](super::ResourceServer); its
/// [`challenge`](super::ResourceServer::challenge) is the HTTP answer.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum AuthError {
    /// No `Authorization` header: 401 with the metadata URL, no error code (RFC 6750 §3.1).
    Missing,
    /// A malformed `Authorization` header: 400 `invalid_request`.
    InvalidRequest(String),
    /// A token that fails a check (signature, expiry, issuer, audience, inactive): 401
    /// `invalid_token`.
    InvalidToken(String),
    /// A good token without the scopes the request needs: 403 `insufficient_scope`.
    InsufficientScope {
        /// The scopes the request needs that the token lacks.
        needed: Vec<String>,
    },
    /// The keys or the introspection endpoint could not be reached: 503, the token was not
    /// judged.
    Unavailable(String),
}

impl AuthError {
    /// The HTTP status that answers it.
    #[must_use]
    pub const fn status(&self) -> u16 {
        match self {
            Self::Missing | Self::InvalidToken(_) => 401,
            Self::InvalidRequest(_) => 400,
            Self::InsufficientScope { .. } => 403,
            Self::Unavailable(_) => 503,
        }
    }

    /// The RFC 6750 error code, if it has one.
    #[must_use]
    pub const fn oauth_code(&self) -> Option<&'static str> {
        match self {
            Self::Missing | Self::Unavailable(_) => None,
            Self::InvalidRequest(_) => Some("invalid_request"),
            Self::InvalidToken(_) => Some("invalid_token"),
            Self::InsufficientScope { .. } => Some("insufficient_scope"),
        }
    }
}

impl std::fmt::Display for AuthError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Missing => f.write_str("this server needs a bearer token"),
            Self::InvalidRequest(why) | Self::InvalidToken(why) => f.write_str(why),
            Self::InsufficientScope { needed } => {
                write!(f, "the token lacks scope {}", needed.join(" "))
            }
            Self::Unavailable(why) => write!(f, "cannot check the token now: {why}"),
        }
    }
}

impl std::error::Error for AuthError {}
