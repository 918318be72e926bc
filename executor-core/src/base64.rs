//! base64 (RFC 4648): standard with padding (§4) for HTTP Basic credentials and the
//! `data`/`blob` fields of MCP images, audio and binary resources; URL-safe without padding
//! (§5) for PKCE verifiers and challenges, `state` and `jti` values.

/// `bytes` as standard base64 with padding.
pub(crate) fn encode(bytes: &[u8]) -> String {
    encode_with(
        bytes,
        b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/",
        true,
    )
}

/// `bytes` as URL-safe base64 without padding.
#[cfg_attr(not(feature = "oauth"), allow(dead_code))]
pub(crate) fn encode_url(bytes: &[u8]) -> String {
    encode_with(
        bytes,
        b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_",
        false,
    )
}

fn encode_with(bytes: &[u8], table: &[u8; 64], pad: bool) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = (u32::from(chunk[0]) << 16)
            | (u32::from(*chunk.get(1).unwrap_or(&0)) << 8)
            | u32::from(*chunk.get(2).unwrap_or(&0));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(table[(n >> (18 - 6 * i) & 63) as usize]));
            } else if pad {
                out.push('=');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{encode, encode_url};

    #[test]
    fn encodes_with_padding() {
        assert_eq!(encode(b"client:secret"), "Y2xpZW50OnNlY3JldA==");
        assert_eq!(encode(b"ab"), "YWI=");
        assert_eq!(encode(b"abc"), "YWJj");
        assert_eq!(encode(b""), "");
        assert_eq!(encode_url(&[0xfb, 0xff]), "-_8");
    }
}
