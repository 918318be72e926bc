//! A served agent answers every oversized request body with 413 naming the limit, whether
//! the body is chunked or declares its length, however large the declared length, and the
//! connection carries the next request (or the 413 says `Connection: close`). Raw HTTP/1.1
//! on loopback, the next request on the same socket.
#![cfg(feature = "a2a")]

mod a2a_support;
mod http_wire;

use std::net::SocketAddr;

use a2a_support::text_message;
use http_wire::{Body, Conn};
use serde_json::json;
use tool_executor::agent::{A2aResult, AgentServer, Emitter, EventQueueWriter, RequestContext};

/// Answers with the text it was sent.
#[tool_executor::agent(
    name = "Echo",
    version = "1.0.0",
    streaming,
    skill(id = "echo", name = "Echo", description = "Repeats the message.", tags = ["echo"]),
)]
impl Echo {
    async fn execute(&self, ctx: &RequestContext, queue: &dyn EventQueueWriter) -> A2aResult<()> {
        Emitter::new(ctx, queue)
            .text_artifact("echo", ctx.message.text().unwrap_or_default())
            .await
    }
}
struct Echo;

fn head(addr: SocketAddr) -> String {
    format!(
        "POST / HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nA2A-Version: 1.0\r\n"
    )
}

/// The next, ordinary request on `conn` is answered.
async fn next_call_works(conn: &mut Conn, addr: SocketAddr, case: &str) {
    let body = json!({"jsonrpc": "2.0", "id": 2, "method": "SendMessage",
                      "params": text_message("still here")})
    .to_string();
    let answer = conn
        .send(&head(addr), Body::Length(body.as_bytes()))
        .await
        .unwrap_or_else(|e| panic!("{case}, the next call: {e}"));
    assert_eq!(answer.status, 200, "{case}: {}", answer.body);
    let task = &answer.json()["result"]["task"];
    assert_eq!(a2a_support::artifact_texts(task), ["still here"], "{case}");
}

#[tokio::test]
async fn oversized_bodies_get_413_and_the_connection_stays_usable() {
    let server = AgentServer::bind("127.0.0.1:0", Echo)
        .await
        .expect("bind")
        .spawn();
    let addr = server.local_addr();
    let big = json!({"jsonrpc": "2.0", "id": 1, "method": "SendMessage",
                     "params": text_message(&"x".repeat(8 << 20))})
    .to_string();
    let cases: [(&str, Body<'_>); 3] = [
        ("chunked 8 MiB", Body::Chunked(big.as_bytes())),
        ("declared 8 MiB", Body::Length(big.as_bytes())),
        ("declared 100 MiB", Body::Filler(100 << 20)),
    ];
    for (case, body) in cases {
        let mut conn = Conn::connect(addr).await;
        let refused = conn
            .send(&head(addr), body)
            .await
            .unwrap_or_else(|e| panic!("{case}: {e}"));
        assert_eq!(refused.status, 413, "{case}: {}", refused.body);
        let error = &refused.json()["error"];
        assert_eq!(error["code"], -32600, "{case}: {error}");
        assert!(
            error["message"]
                .as_str()
                .unwrap()
                .contains("exceeds the 4194304-byte limit (AgentServer::with_max_request_bytes)"),
            "{case}: {error}"
        );
        // The body was read to its end: a client that writes it all before reading met no
        // reset.
        assert!(!refused.write_failed, "{case}: the body was cut off");
        if refused.header("connection") != Some("close") {
            next_call_works(&mut conn, addr, case).await;
        }
    }
}

/// A chunked body under the limit is served as usual, streamed answers included.
#[tokio::test]
async fn a_chunked_body_under_the_limit_is_served() {
    let server = AgentServer::bind("127.0.0.1:0", Echo)
        .await
        .expect("bind")
        .spawn();
    let addr = server.local_addr();
    let mut conn = Conn::connect(addr).await;
    for (method, text) in [
        ("SendMessage", "chunked"),
        ("SendStreamingMessage", "streamed"),
    ] {
        let body = json!({"jsonrpc": "2.0", "id": 1, "method": method,
                          "params": text_message(text)})
        .to_string();
        let answer = conn
            .send(&head(addr), Body::Chunked(body.as_bytes()))
            .await
            .unwrap_or_else(|e| panic!("{method}: {e}"));
        assert_eq!(answer.status, 200, "{method}: {}", answer.body);
        assert!(answer.body.contains(text), "{method}: {}", answer.body);
    }
    next_call_works(&mut conn, addr, "after chunked bodies").await;
}
