//! Reading an authorization server's answers, bounded, and the well-known URLs they live at.

use std::fmt::Write as _;

use serde_json::Value;

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

/// POSTs `fields` as a form to `url` with HTTP Basic client `credentials` (id, secret): the
/// answer's status and body (at most a megabyte), whatever the status.
pub(super) async fn post_form(
    client: &reqwest::Client,
    url: &str,
    credentials: (&str, &str),
    fields: &[(&str, &str)],
) -> Result<(reqwest::StatusCode, Vec<u8>), String> {
    let body = fields
        .iter()
        .map(|(name, value)| format!("{name}={}", form_encode(value)))
        .collect::<Vec<_>>()
        .join("&");
    let (id, secret) = credentials;
    let response = client
        .post(url)
        .header("content-type", "application/x-www-form-urlencoded")
        .header("accept", "application/json")
        .header(
            "authorization",
            format!(
                "Basic {}",
                crate::base64::encode(format!("{id}:{secret}").as_bytes())
            ),
        )
        .body(body)
        .send()
        .await
        .map_err(|e| e.to_string())?;
    let status = response.status();
    Ok((status, read_limited(response, MAX_DOCUMENT).await?))
}

/// `application/x-www-form-urlencoded` of one value.
fn form_encode(value: &str) -> String {
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

/// The string `field` of `issuer`'s metadata: RFC 8414's document, then `OpenID` Connect
/// discovery's.
pub(super) async fn issuer_metadata(
    client: &reqwest::Client,
    issuer: &str,
    field: &str,
) -> Result<String, String> {
    let issuer = issuer.trim_end_matches('/');
    let mut last = String::new();
    for url in [
        well_known(issuer, "oauth-authorization-server"),
        format!("{issuer}/.well-known/openid-configuration"),
    ] {
        match get_json(client, &url).await {
            Ok(metadata) => match metadata[field].as_str() {
                Some(value) => return Ok(value.to_owned()),
                None => last = format!("{url}: the metadata names no {field}"),
            },
            Err(why) => last = why,
        }
    }
    Err(format!("cannot discover the {field} of {issuer}: {last}"))
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
    }
}
