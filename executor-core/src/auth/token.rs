//! Checking one bearer token: a JWT against the JWKS, or anything by introspection.

use std::time::{SystemTime, UNIX_EPOCH};

use jsonwebtoken::errors::ErrorKind;
use jsonwebtoken::{Algorithm, Validation};
use serde_json::{Map, Value};

use super::error::AuthError;
use super::fetch::{ClientAuth, post_form};
use super::principal::Principal;
use super::settings::Settings;

/// Signature algorithms a bearer JWT may use: asymmetric only, so a token cannot be forged
/// with a public key used as an HMAC secret.
const ASYMMETRIC: [Algorithm; 9] = [
    Algorithm::RS256,
    Algorithm::RS384,
    Algorithm::RS512,
    Algorithm::PS256,
    Algorithm::PS384,
    Algorithm::PS512,
    Algorithm::ES256,
    Algorithm::ES384,
    Algorithm::EdDSA,
];

/// Who `token` stands for (and whether introspection said so), or why it is refused.
pub(super) async fn check(
    settings: &Settings,
    token: &str,
) -> Result<(Principal, bool), AuthError> {
    let looks_like_jwt = token.split('.').count() == 3;
    match (&settings.keys, &settings.introspection) {
        (Some(_), _) if looks_like_jwt => Ok((jwt(settings, token).await?, false)),
        (_, Some(_)) => Ok((introspect(settings, token).await?, true)),
        (Some(_), None) => Err(AuthError::InvalidToken("the token is not a JWT".to_owned())),
        (None, None) => Err(AuthError::Unavailable(
            "the server has neither a JWKS nor an introspection endpoint configured".to_owned(),
        )),
    }
}

fn audiences(settings: &Settings) -> Vec<&str> {
    if settings.audiences.is_empty() {
        vec![settings.resource.as_str()]
    } else {
        settings.audiences.iter().map(String::as_str).collect()
    }
}

fn issuers(settings: &Settings) -> &[String] {
    if settings.issuers.is_empty() {
        &settings.authorization_servers
    } else {
        &settings.issuers
    }
}

async fn jwt(settings: &Settings, token: &str) -> Result<Principal, AuthError> {
    let Some(keys) = &settings.keys else {
        return Err(AuthError::InvalidToken("the token is not a JWT".to_owned()));
    };
    let header = jsonwebtoken::decode_header(token)
        .map_err(|e| AuthError::InvalidToken(format!("the token's header cannot be read: {e}")))?;
    if !ASYMMETRIC.contains(&header.alg) {
        return Err(AuthError::InvalidToken(format!(
            "the token is signed with {:?}; this server accepts asymmetric signatures only",
            header.alg
        )));
    }
    let (key, key_alg) = keys.key(&settings.client, header.kid.as_deref()).await?;
    if key_alg.is_some_and(|alg| alg != header.alg) {
        return Err(AuthError::InvalidToken(
            "the token's algorithm is not its key's".to_owned(),
        ));
    }
    let mut validation = Validation::new(header.alg);
    validation.leeway = settings.leeway;
    validation.validate_nbf = true;
    validation.set_audience(&audiences(settings));
    validation.set_required_spec_claims(&["exp", "aud", "sub"]);
    let issuers = issuers(settings);
    if !issuers.is_empty() {
        validation.set_issuer(issuers);
        validation.required_spec_claims.insert("iss".to_owned());
    }
    let data = jsonwebtoken::decode::<Map<String, Value>>(token, &key, &validation)
        .map_err(|e| AuthError::InvalidToken(explain(e.kind(), settings)))?;
    principal(data.claims)
}

fn explain(kind: &ErrorKind, settings: &Settings) -> String {
    match kind {
        ErrorKind::ExpiredSignature => "the token has expired".to_owned(),
        ErrorKind::ImmatureSignature => "the token is not valid yet (nbf)".to_owned(),
        ErrorKind::InvalidAudience => format!(
            "the token was issued for another resource; this server is {} (RFC 8707 audience)",
            settings.resource
        ),
        ErrorKind::InvalidIssuer => "the token's issuer is not trusted here".to_owned(),
        ErrorKind::InvalidSignature => "the token's signature does not verify".to_owned(),
        ErrorKind::MissingRequiredClaim(claim) => format!("the token has no `{claim}` claim"),
        other => format!("the token is invalid: {other:?}"),
    }
}

/// A principal from verified claims: `sub`, the `scope` string (or an `scp` list), the rest.
fn principal(mut claims: Map<String, Value>) -> Result<Principal, AuthError> {
    let Some(Value::String(subject)) = claims.remove("sub") else {
        return Err(AuthError::InvalidToken(
            "the token has no `sub` string".to_owned(),
        ));
    };
    let scopes: Vec<String> = match claims.remove("scope").or_else(|| claims.remove("scp")) {
        Some(Value::String(scope)) => scope.split_whitespace().map(str::to_owned).collect(),
        Some(Value::Array(list)) => list
            .into_iter()
            .filter_map(|s| s.as_str().map(str::to_owned))
            .collect(),
        _ => Vec::new(),
    };
    let mut principal = Principal::new(subject).with_scopes(scopes);
    for (name, value) in claims {
        principal = principal.with_claim(name, value);
    }
    Ok(principal)
}

/// RFC 7662: asks the authorization server whether the token is active, and for whom.
async fn introspect(settings: &Settings, token: &str) -> Result<Principal, AuthError> {
    let Some(endpoint) = &settings.introspection else {
        return Err(AuthError::InvalidToken("the token is not a JWT".to_owned()));
    };
    let unavailable = |e: &dyn std::fmt::Display| {
        AuthError::Unavailable(format!("introspection at {}: {e}", endpoint.endpoint))
    };
    let credentials = ClientAuth::Basic(&endpoint.client_id, &endpoint.client_secret);
    let form = [("token", token), ("token_type_hint", "access_token")];
    let (status, body) = post_form(&settings.client, &endpoint.endpoint, credentials, &form)
        .await
        .map_err(|e| unavailable(&e))?;
    if !status.is_success() {
        return Err(unavailable(&status));
    }
    let mut claims: Map<String, Value> =
        serde_json::from_slice(&body).map_err(|e| unavailable(&e))?;
    if claims.remove("active") != Some(Value::Bool(true)) {
        return Err(AuthError::InvalidToken(
            "the token is not active".to_owned(),
        ));
    }
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    if let Some(exp) = claims.get("exp").and_then(Value::as_u64)
        && exp + settings.leeway < now
    {
        return Err(AuthError::InvalidToken("the token has expired".to_owned()));
    }
    let accepted = audiences(settings);
    let audience_ok = match claims.get("aud") {
        Some(Value::String(aud)) => accepted.contains(&aud.as_str()),
        Some(Value::Array(list)) => list
            .iter()
            .any(|aud| aud.as_str().is_some_and(|aud| accepted.contains(&aud))),
        _ => false,
    };
    if !audience_ok {
        return Err(AuthError::InvalidToken(format!(
            "the token was issued for another resource; this server is {} (RFC 8707 audience)",
            settings.resource
        )));
    }
    let issuers = issuers(settings);
    if !issuers.is_empty()
        && !claims
            .get("iss")
            .and_then(Value::as_str)
            .is_some_and(|iss| issuers.iter().any(|i| i == iss))
    {
        return Err(AuthError::InvalidToken(
            "the token's issuer is not trusted here".to_owned(),
        ));
    }
    principal(claims)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn scopes_come_from_scope_or_scp_and_the_rest_are_claims() {
        let Value::Object(claims) = json!({"sub": "u", "scope": "a  b", "tenant": "t"}) else {
            unreachable!()
        };
        let p = principal(claims).unwrap();
        assert_eq!(p.scopes().iter().collect::<Vec<_>>(), ["a", "b"]);
        assert_eq!(p.claim("tenant"), Some(&json!("t")));
        assert!(p.claim("scope").is_none());
        let Value::Object(claims) = json!({"sub": "u", "scp": ["x"]}) else {
            unreachable!()
        };
        assert!(principal(claims).unwrap().has_scope("x"));
        let Value::Object(claims) = json!({"scope": "x"}) else {
            unreachable!()
        };
        assert!(matches!(principal(claims), Err(AuthError::InvalidToken(_))));
    }
}
