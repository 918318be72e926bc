//! Reading an authorization server's answers, bounded, and the well-known URLs they live at.

use std::fmt::Write as _;

use serde_json::Value;

/// The HTTP client both sides use unless given one: a 10 s timeout, and no redirects (a
/// redirect could carry credentials to another host).
pub(super) fn default_client() -> reqwest::Client {
    reqwest::Client::builder()
        .timeout(std::time::Duration::from_secs(10))
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap_or_default()
}

/// A metadata document or a JWKS is small; a megabyte is far beyond any real one.
const MAX_DOCUMENT: usize = 1 << 20;

/// The body of `response`, refusing more than `limit` bytes.
async fn read_limited(mut response: reqwest::Response, limit: usize) -> Result<Vec<u8>, String> {
    let mut body = Vec::new();
    while let Some(chunk) = response.chunk().await.map_err(|e| e.to_string())? {
        if body.len() + chunk.len() > limit {
            return Err(format!("the answer is larger than {limit} bytes"));
        }
        body.extend_from_slice(&chunk);
    }
    Ok(body)
}

/// The JSON document at `url` (a 2xx answer of at most a megabyte); errors name the URL.
pub(super) async fn get_json(client: &reqwest::Client, url: &str) -> Result<Value, String> {
    let response = client
        .get(url)
        .header("accept", "application/json")
        .send()
        .await
        .map_err(|e| format!("{url}: {e}"))?;
    if !response.status().is_success() {
        return Err(format!("{url}: {}", response.status()));
    }
    let body = read_limited(response, MAX_DOCUMENT)
        .await
        .map_err(|e| format!("{url}: {e}"))?;
    serde_json::from_slice(&body).map_err(|e| format!("{url}: {e}"))
}

/// How a client authenticates itself at a token (or introspection) endpoint (RFC 6749 §2.3,
/// RFC 8414 `token_endpoint_auth_methods_supported`).
#[derive(Debug, Clone, Copy)]
pub(super) enum ClientAuth<'a> {
    /// `client_secret_basic`: HTTP Basic with the id and secret.
    Basic(&'a str, &'a str),
    /// `client_secret_post`: the id and secret as form fields.
    Post(&'a str, &'a str),
    /// `none`: a public client names itself with `client_id` only.
    None(&'a str),
    /// `private_key_jwt`: the form carries a signed assertion already.
    Assertion,
}

/// POSTs `fields` as a form to `url`, the client authenticated as `auth` says: the answer's
/// status and body (at most a megabyte), whatever the status.
pub(super) async fn post_form(
    client: &reqwest::Client,
    url: &str,
    auth: ClientAuth<'_>,
    fields: &[(&str, &str)],
) -> Result<(reqwest::StatusCode, Vec<u8>), String> {
    let mut body = fields
        .iter()
        .map(|(name, value)| format!("{name}={}", form_encode(value)))
        .collect::<Vec<_>>()
        .join("&");
    let mut request = client
        .post(url)
        .header("content-type", "application/x-www-form-urlencoded")
        .header("accept", "application/json");
    let mut field = |name: &str, value: &str| {
        if !body.is_empty() {
            body.push('&');
        }
        let _ = write!(body, "{name}={}", form_encode(value));
    };
    match auth {
        ClientAuth::Basic(id, secret) => {
            // RFC 6749 §2.3.1: each part form-encoded before the Basic encoding.
            let pair = format!("{}:{}", form_encode(id), form_encode(secret));
            request = request.header(
                "authorization",
                format!("Basic {}", crate::base64::encode(pair.as_bytes())),
            );
        }
        ClientAuth::Post(id, secret) => {
            field("client_id", id);
            field("client_secret", secret);
        }
        ClientAuth::None(id) => field("client_id", id),
        ClientAuth::Assertion => {}
    }
    let response = request.body(body).send().await.map_err(|e| e.to_string())?;
    let status = response.status();
    Ok((status, read_limited(response, MAX_DOCUMENT).await?))
}

/// POSTs `document` as JSON to `url` (dynamic client registration): the answer's status and
/// JSON body (at most a megabyte).
pub(super) async fn post_json(
    client: &reqwest::Client,
    url: &str,
    document: &Value,
) -> Result<(reqwest::StatusCode, Value), String> {
    let response = client
        .post(url)
        .header("content-type", "application/json")
        .header("accept", "application/json")
        .body(document.to_string())
        .send()
        .await
        .map_err(|e| format!("{url}: {e}"))?;
    let status = response.status();
    let body = read_limited(response, MAX_DOCUMENT)
        .await
        .map_err(|e| format!("{url}: {e}"))?;
    let answer = serde_json::from_slice(&body).map_err(|e| format!("{url} ({status}): {e}"))?;
    Ok((status, answer))
}

/// `application/x-www-form-urlencoded` of one value.
pub(super) fn form_encode(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for byte in value.bytes() {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                out.push(char::from(byte));
            }
            _ => {
                let _ = write!(out, "%{byte:02X}");
            }
        }
    }
    out
}

/// `scheme://authority` and the path of a URI (no query or fragment, no trailing `/`).
pub(super) fn split_uri(uri: &str) -> (&str, &str) {
    let after_scheme = uri.find("://").map_or(0, |i| i + 3);
    let end = uri[after_scheme..]
        .find('/')
        .map_or(uri.len(), |i| after_scheme + i);
    let path = uri[end..].split(['?', '#']).next().unwrap_or("");
    (&uri[..end], path.trim_end_matches('/'))
}

/// The well-known URL `name` for `uri`, inserted before its path (RFC 8615 as RFC 8414 §3 and
/// RFC 9728 §3.1 use it): `https://h/.well-known/{name}/mcp` for `https://h/mcp`.
pub(super) fn well_known(uri: &str, name: &str) -> String {
    let (origin, path) = split_uri(uri);
    format!("{origin}/.well-known/{name}{path}")
}

/// The string `field` of `issuer`'s metadata ([`issuer_document`]).
pub(super) async fn issuer_metadata(
    client: &reqwest::Client,
    issuer: &str,
    field: &str,
) -> Result<String, String> {
    let (url, metadata) = issuer_document(client, issuer).await?;
    metadata[field]
        .as_str()
        .map(str::to_owned)
        .ok_or_else(|| format!("{url}: the metadata names no {field}"))
}

/// Where `issuer`'s metadata may live, in the order the MCP authorization spec tries them:
/// RFC 8414's path-inserted document, then `OpenID` Connect discovery's path-inserted and
/// path-appended forms (for an issuer without a path, the two root documents).
pub(super) fn issuer_document_urls(issuer: &str) -> Vec<String> {
    let issuer = issuer.trim_end_matches('/');
    let (origin, path) = split_uri(issuer);
    let mut urls = vec![
        well_known(issuer, "oauth-authorization-server"),
        well_known(issuer, "openid-configuration"),
    ];
    if !path.is_empty() {
        urls.push(format!("{origin}{path}/.well-known/openid-configuration"));
    }
    urls
}

/// `issuer`'s metadata document and the URL it came from: the first of
/// [`issuer_document_urls`] that answers, whose `issuer` is `issuer` (RFC 8414 §3.3: a
/// document naming another issuer is refused).
pub(super) async fn issuer_document(
    client: &reqwest::Client,
    issuer: &str,
) -> Result<(String, Value), String> {
    let mut last = String::new();
    for url in issuer_document_urls(issuer) {
        match get_json(client, &url).await {
            Ok(metadata) => match metadata["issuer"].as_str() {
                Some(named) if named.trim_end_matches('/') != issuer.trim_end_matches('/') => {
                    last = format!("{url} names issuer {named}, not {issuer}");
                }
                _ => return Ok((url, metadata)),
            },
            Err(why) => last = why,
        }
    }
    Err(format!("cannot discover the metadata of {issuer}: {last}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn form_encoding() {
        assert_eq!(form_encode("a b+c/="), "a%20b%2Bc%2F%3D");
    }

    #[test]
    fn well_known_urls_go_before_the_path() {
        assert_eq!(split_uri("http://h:1/mcp/?x"), ("http://h:1", "/mcp"));
        assert_eq!(split_uri("https://h"), ("https://h", ""));
        assert_eq!(
            well_known("http://h:1/mcp/", "oauth-protected-resource"),
            "http://h:1/.well-known/oauth-protected-resource/mcp"
        );
        assert_eq!(
            well_known("https://auth.test/tenant", "oauth-authorization-server"),
            "https://auth.test/.well-known/oauth-authorization-server/tenant"
        );
        assert_eq!(
            issuer_document_urls("http://a:1/tenant1/"),
            [
                "http://a:1/.well-known/oauth-authorization-server/tenant1",
                "http://a:1/.well-known/openid-configuration/tenant1",
                "http://a:1/tenant1/.well-known/openid-configuration",
            ]
        );
        assert_eq!(
            issuer_document_urls("http://a:1"),
            [
                "http://a:1/.well-known/oauth-authorization-server",
                "http://a:1/.well-known/openid-configuration",
            ]
        );
    }
}
