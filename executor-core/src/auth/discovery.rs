//! Finding who issues tokens for a protected server, in the order the MCP authorization spec
//! gives: the server's protected-resource metadata (RFC 9728) at the URL its challenge names,
//! else at the path-based well-known URL, else at the root one; then the first authorization
//! server's metadata (RFC 8414, `OpenID` discovery).

use serde_json::Value;

use super::fetch::{get_json, issuer_document, split_uri, well_known};

/// What a client learnt about a protected server before asking for a token.
#[derive(Debug, Clone)]
pub(super) struct Discovered {
    /// The resource a token is asked for (RFC 8707): the server's metadata's `resource`.
    pub(super) resource: String,
    /// The server's `scopes_supported`, space-separated, when it lists any.
    pub(super) scopes_supported: Option<String>,
    /// The authorization server's issuer identifier.
    pub(super) issuer: String,
    /// The authorization server's metadata document.
    pub(super) metadata: Value,
}

impl Discovered {
    /// A string field of the authorization server's metadata, or an error naming it.
    pub(super) fn endpoint(&self, field: &str) -> Result<&str, String> {
        self.metadata[field]
            .as_str()
            .ok_or_else(|| format!("the metadata of {} names no {field}", self.issuer))
    }
}

/// Discovers `server`'s authorization server. `challenge` is the server's last
/// `WWW-Authenticate` value; `pinned`, when set, is the only issuer the client trusts with its
/// credentials.
pub(super) async fn discover(
    http: &reqwest::Client,
    server: &str,
    challenge: Option<&str>,
    pinned: Option<&str>,
) -> Result<Discovered, String> {
    let candidates = if let Some(named) = challenge.and_then(|c| parameter(c, "resource_metadata"))
    {
        vec![named]
    } else {
        let (origin, _) = split_uri(server);
        let mut urls = vec![well_known(server, "oauth-protected-resource")];
        let root = format!("{origin}/.well-known/oauth-protected-resource");
        if urls[0] != root {
            urls.push(root);
        }
        urls
    };
    let mut last = String::new();
    let mut found = None;
    for url in &candidates {
        match get_json(http, url).await {
            Ok(document) => {
                found = Some((url, document));
                break;
            }
            Err(why) => last = why,
        }
    }
    let Some((metadata_url, protected)) = found else {
        return legacy(http, server, pinned)
            .await
            .map_err(|why| format!("no protected-resource metadata for {server} ({last}); {why}"));
    };
    let resource = match protected["resource"].as_str() {
        Some(resource) if covers(resource, server) => resource.to_owned(),
        Some(resource) => {
            return Err(format!(
                "{metadata_url} is for resource {resource}, not {server}; no token is requested"
            ));
        }
        None => return Err(format!("{metadata_url} names no resource")),
    };
    let servers: Vec<&str> = protected["authorization_servers"]
        .as_array()
        .map(|list| list.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let issuer = match pinned {
        Some(pinned) => servers
            .iter()
            .find(|s| same_issuer(s, pinned))
            .copied()
            .ok_or_else(|| {
                format!(
                    "{metadata_url} names authorization servers {servers:?}, not {pinned}; \
                     the credentials are not sent"
                )
            })?,
        None => servers
            .first()
            .copied()
            .ok_or_else(|| format!("{metadata_url} names no authorization server"))?,
    };
    let scopes_supported = protected["scopes_supported"].as_array().map(|scopes| {
        scopes
            .iter()
            .filter_map(Value::as_str)
            .collect::<Vec<_>>()
            .join(" ")
    });
    let (_, metadata) = issuer_document(http, issuer).await?;
    Ok(Discovered {
        resource,
        scopes_supported: scopes_supported.filter(|s| !s.is_empty()),
        issuer: issuer.to_owned(),
        metadata,
    })
}

/// The 2025-03-26 discovery, for a server without protected-resource metadata: the server's
/// origin is its own authorization server, described at the origin's RFC 8414 well-known URL
/// or, without one, by the default endpoints `/authorize`, `/token` and `/register`.
async fn legacy(
    http: &reqwest::Client,
    server: &str,
    pinned: Option<&str>,
) -> Result<Discovered, String> {
    let (origin, _) = split_uri(server);
    if let Some(pinned) = pinned
        && !same_issuer(origin, pinned)
    {
        return Err(format!(
            "{origin} would be its own authorization server, not {pinned}; the credentials are \
             not sent"
        ));
    }
    let metadata = match get_json(http, &well_known(origin, "oauth-authorization-server")).await {
        Ok(metadata) => metadata,
        Err(_) => serde_json::json!({
            "issuer": origin,
            "authorization_endpoint": format!("{origin}/authorize"),
            "token_endpoint": format!("{origin}/token"),
            "registration_endpoint": format!("{origin}/register"),
            // 2025-03-26 required PKCE of every client and server.
            "code_challenge_methods_supported": ["S256"],
        }),
    };
    Ok(Discovered {
        resource: server.to_owned(),
        scopes_supported: None,
        issuer: origin.to_owned(),
        metadata,
    })
}

/// Whether the metadata's `resource` stands for `server`: the same URL, or one on the same
/// origin whose path is a prefix of the server's at a segment boundary (a resource for a whole
/// host covers its `/mcp` endpoint).
fn covers(resource: &str, server: &str) -> bool {
    let (resource_origin, resource_path) = split_uri(resource);
    let (server_origin, server_path) = split_uri(server);
    resource_origin.eq_ignore_ascii_case(server_origin)
        && (resource_path.is_empty()
            || server_path == resource_path
            || server_path
                .strip_prefix(resource_path)
                .is_some_and(|rest| rest.starts_with('/')))
}

/// One parameter of a `WWW-Authenticate` challenge, quoted (`name="value"`) or a bare token.
pub(super) fn parameter(challenge: &str, name: &str) -> Option<String> {
    let mut rest = challenge;
    while let Some(at) = rest.find(name) {
        let before = rest[..at].chars().next_back();
        let after = &rest[at + name.len()..];
        rest = after;
        if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_') {
            continue;
        }
        let Some(value) = after.trim_start().strip_prefix('=') else {
            continue;
        };
        let value = value.trim_start();
        return Some(match value.strip_prefix('"') {
            Some(quoted) => quoted[..quoted.find('"').unwrap_or(quoted.len())].to_owned(),
            None => value
                .split([',', ' '])
                .next()
                .unwrap_or_default()
                .to_owned(),
        });
    }
    None
}

pub(super) fn same_issuer(a: &str, b: &str) -> bool {
    a.trim_end_matches('/') == b.trim_end_matches('/')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn challenge_parameters_quoted_or_bare() {
        let challenge = "Bearer error=\"insufficient_scope\", scope=\"a b\", \
                         resource_metadata=\"http://h/.well-known/oauth-protected-resource/mcp\"";
        assert_eq!(
            parameter(challenge, "resource_metadata").as_deref(),
            Some("http://h/.well-known/oauth-protected-resource/mcp")
        );
        assert_eq!(parameter(challenge, "scope").as_deref(), Some("a b"));
        assert_eq!(
            parameter(challenge, "error").as_deref(),
            Some("insufficient_scope")
        );
        assert_eq!(
            parameter("Bearer error=invalid_token, x=1", "error").as_deref(),
            Some("invalid_token")
        );
        assert_eq!(parameter("Bearer realm=\"x\"", "scope"), None);
        // `error_description` is not `error`, nor `resource_metadata` `metadata`.
        assert_eq!(
            parameter("Bearer error_description=\"e\"", "error"),
            None,
            "a longer name holding this one is not it"
        );
        assert_eq!(
            parameter("Bearer resource_metadata=\"u\"", "metadata"),
            None
        );
        assert!(same_issuer("http://a/", "http://a"));
    }

    #[test]
    fn a_resource_covers_its_own_url_and_paths_below_it() {
        assert!(covers("http://h:1/mcp", "http://h:1/mcp"));
        assert!(covers("http://h:1", "http://h:1/mcp"));
        assert!(covers("http://h:1/", "http://h:1/mcp/"));
        assert!(covers("http://h:1/api", "http://h:1/api/mcp"));
        assert!(!covers("http://h:1/api", "http://h:1/apis/mcp"));
        assert!(!covers("http://h:1/other", "http://h:1/mcp"));
        assert!(!covers("http://h:2/mcp", "http://h:1/mcp"));
        assert!(!covers("https://evil.example/mcp", "http://h:1/mcp"));
    }
}
