//! `Principal`: the authenticated caller of a tool.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// The authenticated caller: a subject, the scopes it was granted and the rest of its claims.
///
/// Built by whatever authenticated the request (a bearer token's claims, the A2A server's
/// caller identity, an application's own check) and read by tools from their context:
///
/// ```
/// use tool_executor::auth::Principal;
/// use tool_executor::{ToolContext, ToolFailure};
///
/// fn owner(ctx: &ToolContext) -> Result<String, ToolFailure> {
///     let user = ctx.require_extension::<Principal>()?;
///     if !user.has_scope("notes:read") {
///         return Err(ToolFailure::terminal("notes:read is needed").with_code("forbidden"));
///     }
///     Ok(user.subject().to_owned())
/// }
///
/// let ctx = ToolContext::new().with_extension(
///     Principal::new("alice").with_scopes(["notes:read", "notes:write"]),
/// );
/// assert_eq!(owner(&ctx).unwrap(), "alice");
/// assert_eq!(owner(&ToolContext::new()).unwrap_err().code(), "missing_extension");
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Principal {
    subject: String,
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    scopes: BTreeSet<String>,
    #[serde(default, skip_serializing_if = "Map::is_empty")]
    claims: Map<String, Value>,
}

impl Principal {
    /// A principal with no scopes and no other claims.
    #[must_use]
    pub fn new(subject: impl Into<String>) -> Self {
        Self {
            subject: subject.into(),
            scopes: BTreeSet::new(),
            claims: Map::new(),
        }
    }

    /// Adds scopes (each one a scope token, as in OAuth's space-separated `scope` claim).
    #[must_use]
    pub fn with_scopes<I, S>(mut self, scopes: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.scopes.extend(scopes.into_iter().map(Into::into));
        self
    }

    /// Adds a claim (a JWT claim, an introspection field, a tenant).
    #[must_use]
    pub fn with_claim(mut self, name: impl Into<String>, value: Value) -> Self {
        self.claims.insert(name.into(), value);
        self
    }

    /// Who is calling (a token's `sub`, an A2A caller identity).
    #[must_use]
    pub fn subject(&self) -> &str {
        &self.subject
    }

    /// The scopes granted, sorted.
    #[must_use]
    pub fn scopes(&self) -> &BTreeSet<String> {
        &self.scopes
    }

    /// Whether `scope` was granted.
    #[must_use]
    pub fn has_scope(&self, scope: &str) -> bool {
        self.scopes.contains(scope)
    }

    /// The first of `needed` that was not granted, if any.
    #[must_use]
    pub fn missing_scope<'a>(&self, needed: &[&'a str]) -> Option<&'a str> {
        needed.iter().copied().find(|scope| !self.has_scope(scope))
    }

    /// Every other claim.
    #[must_use]
    pub fn claims(&self) -> &Map<String, Value> {
        &self.claims
    }

    /// One claim.
    #[must_use]
    pub fn claim(&self, name: &str) -> Option<&Value> {
        self.claims.get(name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn scopes_are_a_set_and_the_missing_one_is_named() {
        let user = Principal::new("alice").with_scopes(["b", "a", "b"]);
        assert_eq!(user.scopes().iter().collect::<Vec<_>>(), ["a", "b"]);
        assert_eq!(user.missing_scope(&["a", "c", "d"]), Some("c"));
        assert_eq!(user.missing_scope(&["b"]), None);
    }

    #[test]
    fn serializes_in_camel_case_without_empty_fields() {
        let user = Principal::new("alice")
            .with_scopes(["notes:read"])
            .with_claim("tenant", json!("acme"));
        assert_eq!(
            serde_json::to_value(&user).unwrap(),
            json!({"subject": "alice", "scopes": ["notes:read"], "claims": {"tenant": "acme"}})
        );
        assert_eq!(
            serde_json::to_value(Principal::new("bob")).unwrap(),
            json!({"subject": "bob"})
        );
        let back: Principal = serde_json::from_value(json!({"subject": "bob"})).unwrap();
        assert_eq!(back, Principal::new("bob"));
    }
}
