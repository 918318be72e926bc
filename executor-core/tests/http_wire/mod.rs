//! One raw HTTP/1.1 keep-alive connection, for tests that need the next request on the same
//! socket: the body is written while the answer is read (a server may answer early), with a
//! `Content-Length` or chunked.
#![allow(dead_code)] // each test binary uses a different subset

use std::net::SocketAddr;
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;

pub const WAIT: Duration = Duration::from_secs(30);

/// How the body goes out.
pub enum Body<'a> {
    Empty,
    /// With a `Content-Length`.
    Length(&'a [u8]),
    /// `Transfer-Encoding: chunked`, in 64 KiB chunks.
    Chunked(&'a [u8]),
    /// `Content-Length: n` and `n` bytes of `x`, generated as they are written.
    Filler(u64),
}

#[derive(Debug)]
pub struct Response {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
    /// Whether writing the body failed (the server closed or reset the connection).
    pub write_failed: bool,
}

impl Response {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    pub fn json(&self) -> serde_json::Value {
        let text = self.body.trim();
        // An SSE answer: the last `data:` line with JSON in it.
        let text = text
            .lines()
            .rev()
            .find_map(|l| {
                l.strip_prefix("data:")
                    .map(str::trim)
                    .filter(|d| !d.is_empty())
            })
            .unwrap_or(text);
        serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {:.300}", self.body))
    }
}

pub struct Conn {
    read: BufReader<tokio::net::tcp::OwnedReadHalf>,
    write: tokio::net::tcp::OwnedWriteHalf,
}

impl Conn {
    pub async fn connect(addr: SocketAddr) -> Self {
        let stream = TcpStream::connect(addr).await.unwrap();
        let (read, write) = stream.into_split();
        Self {
            read: BufReader::new(read),
            write,
        }
    }

    /// Sends a request (`head` without the framing headers and the blank line) and reads its
    /// answer. Errors reading the answer (a reset) are `Err` with what happened.
    pub async fn send(&mut self, head: &str, body: Body<'_>) -> Result<Response, String> {
        let framing = match body {
            Body::Empty => "Content-Length: 0\r\n".to_owned(),
            Body::Length(b) => format!("Content-Length: {}\r\n", b.len()),
            Body::Chunked(_) => "Transfer-Encoding: chunked\r\n".to_owned(),
            Body::Filler(n) => format!("Content-Length: {n}\r\n"),
        };
        let head = format!("{}\r\n{framing}\r\n", head.trim_end());
        let write = &mut self.write;
        let writing = async move {
            write.write_all(head.as_bytes()).await?;
            match body {
                Body::Empty => {}
                Body::Length(b) => write.write_all(b).await?,
                Body::Chunked(b) => {
                    for chunk in b.chunks(64 * 1024) {
                        write
                            .write_all(format!("{:x}\r\n", chunk.len()).as_bytes())
                            .await?;
                        write.write_all(chunk).await?;
                        write.write_all(b"\r\n").await?;
                    }
                    write.write_all(b"0\r\n\r\n").await?;
                }
                Body::Filler(mut n) => {
                    let block = vec![b'x'; 256 * 1024];
                    while n > 0 {
                        let len = usize::try_from(n).map_or(block.len(), |n| n.min(block.len()));
                        write.write_all(&block[..len]).await?;
                        n -= u64::try_from(len).expect("a block fits in u64");
                    }
                }
            }
            write.flush().await
        };
        let reading = read_response(&mut self.read);
        let both = async { tokio::join!(writing, reading) };
        let (written, read) = tokio::time::timeout(WAIT, both)
            .await
            .map_err(|_| "no answer in time".to_owned())?;
        let mut response = read?;
        response.write_failed = written.is_err();
        Ok(response)
    }
}

async fn read_response<R: tokio::io::AsyncBufRead + Unpin>(
    read: &mut R,
) -> Result<Response, String> {
    let mut line = String::new();
    read.read_line(&mut line)
        .await
        .map_err(|e| format!("reading the status line: {e}"))?;
    if line.is_empty() {
        return Err("the connection closed without an answer".to_owned());
    }
    let status = line
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| format!("not a status line: {line:?}"))?;
    let mut headers = Vec::new();
    loop {
        line.clear();
        read.read_line(&mut line)
            .await
            .map_err(|e| format!("reading headers: {e}"))?;
        let l = line.trim_end();
        if l.is_empty() {
            break;
        }
        let (n, v) = l.split_once(':').ok_or("a bad header")?;
        headers.push((n.trim().to_owned(), v.trim().to_owned()));
    }
    let find = |name: &str| {
        headers
            .iter()
            .find(|(n, _): &&(String, String)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.clone())
    };
    let mut body = Vec::new();
    if let Some(length) = find("content-length") {
        let length: usize = length.parse().map_err(|_| "a bad length")?;
        body.resize(length, 0);
        read.read_exact(&mut body)
            .await
            .map_err(|e| format!("reading the body: {e}"))?;
    } else if find("transfer-encoding").is_some_and(|v| v.contains("chunked")) {
        loop {
            line.clear();
            read.read_line(&mut line)
                .await
                .map_err(|e| format!("reading a chunk: {e}"))?;
            let size = usize::from_str_radix(line.trim(), 16).map_err(|_| "a bad chunk")?;
            let mut chunk = vec![0; size + 2];
            read.read_exact(&mut chunk)
                .await
                .map_err(|e| format!("reading a chunk: {e}"))?;
            body.extend_from_slice(&chunk[..size]);
            if size == 0 {
                break;
            }
        }
    }
    Ok(Response {
        status,
        headers,
        body: String::from_utf8_lossy(&body).into_owned(),
        write_failed: false,
    })
}
