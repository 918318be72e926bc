//! Reading one bounded line, and finding the id of a request too long to parse.

use std::io;

use rmcp::model::{NumberOrString, RequestId};
use serde_json::Value;
use tokio::io::{AsyncBufRead, AsyncBufReadExt};

/// What [`read_line`] read into its buffer.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Line {
    /// A whole line.
    Complete,
    /// A line longer than the bound: the buffer holds its first bytes, to find the id in.
    Oversized,
    Eof,
}

/// The most line buffer kept between lines; a longer line's buffer is freed.
const KEPT_CAPACITY: usize = 64 * 1024;

/// How much of an oversized line is kept to look for its id.
pub(crate) const PREFIX_BYTES: usize = 1024;

pub(super) fn trim(bytes: &[u8]) -> &[u8] {
    let bytes = bytes.strip_suffix(b"\n").unwrap_or(bytes);
    let bytes = bytes.strip_suffix(b"\r").unwrap_or(bytes);
    bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes)
}

pub(super) fn request_id(value: &Value) -> Option<RequestId> {
    match value {
        Value::Number(n) => n.as_i64().map(NumberOrString::Number),
        Value::String(s) => Some(NumberOrString::String(s.as_str().into())),
        _ => None,
    }
}

/// Finds a top-level-looking `"id": <number or string>` in the first bytes of an oversized
/// request, so the error can be correlated (also for HTTP requests refused unread, sessions.rs). Serializers put `id` before `params` (the SDKs
/// emit `jsonrpc`, `id`, `method`, `params`); a miss answers with a null id.
pub(crate) fn find_id(prefix: &[u8]) -> Option<RequestId> {
    let text = String::from_utf8_lossy(prefix);
    let params_at = text.find("\"params\"").unwrap_or(text.len());
    let at = text[..params_at].find("\"id\"")?;
    let rest = text[at + 4..].trim_start().strip_prefix(':')?.trim_start();
    let mut stream = serde_json::Deserializer::from_str(rest).into_iter::<Value>();
    stream.next()?.ok().as_ref().and_then(request_id)
}

/// Reads one line into `line` (cleared first) without holding more than `max` bytes of it.
/// The buffer keeps its capacity for the next line unless a long line grew it past
/// [`KEPT_CAPACITY`].
pub(super) async fn read_line<R: AsyncBufRead + Unpin>(
    read: &mut R,
    max: usize,
    line: &mut Vec<u8>,
) -> io::Result<Line> {
    if line.capacity() > KEPT_CAPACITY {
        *line = Vec::new();
    }
    line.clear();
    let mut oversized = false;
    loop {
        let buf = read.fill_buf().await?;
        if buf.is_empty() {
            return Ok(match (line.is_empty(), oversized) {
                (_, true) => Line::Oversized,
                (true, false) => Line::Eof,
                (false, false) => Line::Complete,
            });
        }
        let (chunk, done) = match memchr::memchr(b'\n', buf) {
            Some(i) => (&buf[..=i], true),
            None => (buf, false),
        };
        let used = chunk.len();
        if !oversized && line.len() + used > max {
            oversized = true;
        }
        // Past the bound, only a prefix (to find the id in) is kept; the rest is discarded.
        let keep = if oversized {
            PREFIX_BYTES.saturating_sub(line.len()).min(used)
        } else {
            used
        };
        line.extend_from_slice(&chunk[..keep]);
        if oversized {
            line.truncate(PREFIX_BYTES);
        }
        read.consume(used);
        if done {
            return Ok(if oversized {
                Line::Oversized
            } else {
                Line::Complete
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use tokio::io::BufReader;

    use super::*;

    #[test]
    fn finds_ids_before_params() {
        let line = br#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo","arguments":{"text":"xxxx"#;
        assert_eq!(find_id(line), Some(NumberOrString::Number(7)));
        let line = br#"{"jsonrpc":"2.0","id":"a-1","method":"tools/call","params":{"#;
        assert_eq!(find_id(line), Some(NumberOrString::String("a-1".into())));
        let line = br#"{"jsonrpc":"2.0","method":"tools/call","params":{"id":3,"#;
        assert_eq!(find_id(line), None);
    }

    #[tokio::test]
    async fn long_lines_are_cut_and_the_next_line_survives() {
        let input = format!("{}\nok\n", "x".repeat(5000));
        let mut read = BufReader::with_capacity(64, input.as_bytes());
        let mut line = Vec::new();
        assert_eq!(
            read_line(&mut read, 100, &mut line).await.unwrap(),
            Line::Oversized
        );
        assert_eq!(line.len(), PREFIX_BYTES);
        assert_eq!(
            read_line(&mut read, 100, &mut line).await.unwrap(),
            Line::Complete
        );
        assert_eq!(line, b"ok\n");
        assert_eq!(
            read_line(&mut read, 100, &mut line).await.unwrap(),
            Line::Eof
        );
    }
}
