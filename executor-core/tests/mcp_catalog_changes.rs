//! A served catalog that changes (`Catalog::editor`) and resource updates, as raw JSON-RPC: on
//! stdio and streamable HTTP, on 2025-11-25 sessions (`notifications/*/list_changed` after
//! `initialized`, `resources/subscribe`) and on 2026-07-28 `subscriptions/listen` streams
//! (tagged with the subscription's id). Every notification is compared whole.
#![cfg(feature = "mcp-http")]

mod stdio_support;

use std::net::SocketAddr;
use std::time::Duration;

use serde_json::{Value, json};
use stdio_support::StdioClient;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::{TcpListener, TcpStream};
use tokio_util::sync::CancellationToken;
use tool_executor::catalog::{Catalog, CatalogEditor, PromptMessage};
use tool_executor::mcp::McpServer;
use tool_executor::prelude::*;

const WAIT: Duration = Duration::from_secs(20);

/// Greets someone.
#[prompt]
fn greet(name: &str) -> PromptMessage {
    PromptMessage::user(format!("Say hello to {name}."))
}

/// The README.
#[resource(uri = "docs://readme", mime_type = "text/markdown")]
fn readme() -> String {
    "# Hello".into()
}

/// A note.
#[resource(template = "notes://{id}", mime_type = "text/plain")]
fn note(id: u32) -> String {
    format!("note {id}")
}

/// A server whose catalog can change, and its editor.
fn changing() -> (McpServer, CatalogEditor) {
    let catalog: Catalog = catalog![readme, note];
    let editor = catalog.editor();
    (McpServer::new(toolset![]).with_catalog(catalog), editor)
}

/// What a 2026-07-28 request carries in `_meta` instead of a handshake.
fn meta() -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "changes", "version": "1"}
    })
}

fn listen_params() -> Value {
    json!({
        "_meta": meta(),
        "notifications": {
            "promptsListChanged": true,
            "resourcesListChanged": true,
            "resourceSubscriptions": ["notes://7", "nowhere://x"]
        }
    })
}

fn notification(method: &str) -> Value {
    json!({"jsonrpc": "2.0", "method": method})
}

/// A notification a `subscriptions/listen` stream carries: tagged with the request's id.
fn tagged(method: &str, id: i64, params: Option<Value>) -> Value {
    let mut params = params.unwrap_or_else(|| json!({}));
    params["_meta"] = json!({"io.modelcontextprotocol/subscriptionId": id});
    json!({"jsonrpc": "2.0", "method": method, "params": params})
}

#[tokio::test]
async fn a_static_catalog_does_not_offer_list_changed() {
    let server = McpServer::new(toolset![]).with_catalog(catalog![greet, readme]);
    let mut client = StdioClient::open(server);
    let init = json!({
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "static", "version": "1"}
    });
    let reply = client.request(0, "initialize", init).await;
    let capabilities = &reply["result"]["capabilities"];
    assert_eq!(capabilities["prompts"], json!({}));
    assert_eq!(capabilities["resources"], json!({"subscribe": true}));
}

#[tokio::test]
async fn stdio_2025_11_25_sessions_hear_of_every_change() {
    let (server, editor) = changing();
    let mut client = StdioClient::open(server);
    let init = json!({
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "changes", "version": "1"}
    });
    let reply = client.request(0, "initialize", init).await;
    let capabilities = &reply["result"]["capabilities"];
    assert_eq!(capabilities["prompts"], json!({"listChanged": true}));
    assert_eq!(
        capabilities["resources"],
        json!({"subscribe": true, "listChanged": true})
    );
    client
        .send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
        .await;
    let empty = client.request(1, "prompts/list", json!({})).await;
    assert_eq!(empty["result"]["prompts"], json!([]));

    editor.add::<greet>();
    assert_eq!(
        client.message().await,
        notification("notifications/prompts/list_changed")
    );
    let listed = client.request(2, "prompts/list", json!({})).await;
    assert_eq!(listed["result"]["prompts"][0]["name"], "greet");

    assert!(editor.remove_resource("notes://{id}"));
    assert_eq!(
        client.message().await,
        notification("notifications/resources/list_changed")
    );
    let templates = client
        .request(3, "resources/templates/list", json!({}))
        .await;
    assert_eq!(templates["result"]["resourceTemplates"], json!([]));
    // Removing what is not there changes nothing, and tells nobody: the next message is the
    // answer to the next request.
    assert!(!editor.remove_prompt("nothing"));
    let answer = client.request(4, "ping", json!({})).await;
    assert_eq!(answer["result"], json!({}));
}

#[tokio::test]
async fn stdio_2026_07_28_listen_streams_carry_list_changes_and_updates() {
    let (server, editor) = changing();
    let mut client = StdioClient::open(server.clone());
    client
        .send(
            &json!({"jsonrpc": "2.0", "id": 9, "method": "subscriptions/listen",
                      "params": listen_params()}),
        )
        .await;
    assert_eq!(
        client.message().await,
        json!({"jsonrpc": "2.0", "method": "notifications/subscriptions/acknowledged",
        "params": {
            "_meta": {"io.modelcontextprotocol/subscriptionId": 9},
            "notifications": {"promptsListChanged": true, "resourcesListChanged": true,
                              "resourceSubscriptions": ["notes://7"]}
        }})
    );
    editor.add::<greet>();
    assert_eq!(
        client.message().await,
        tagged("notifications/prompts/list_changed", 9, None)
    );
    // An update of a URI the stream did not name is not sent on it.
    server.notify_resource_updated("notes://8").await;
    server.notify_resource_updated("notes://7").await;
    assert_eq!(
        client.message().await,
        tagged(
            "notifications/resources/updated",
            9,
            Some(json!({"uri": "notes://7"}))
        )
    );
    assert!(editor.remove_resource("docs://readme"));
    assert_eq!(
        client.message().await,
        tagged("notifications/resources/list_changed", 9, None)
    );
}

/// One raw HTTP/1.1 request whose answer is read event by event (an SSE stream).
struct Stream {
    read: BufReader<TcpStream>,
    status: u16,
    headers: Vec<(String, String)>,
    chunked: bool,
    buffer: String,
}

impl Stream {
    async fn open(addr: SocketAddr, head: &str, body: &str) -> Self {
        let mut socket = TcpStream::connect(addr).await.unwrap();
        let request = format!(
            "{}\r\nHost: {addr}\r\nContent-Length: {}\r\n\r\n{body}",
            head.trim_end(),
            body.len()
        );
        socket.write_all(request.as_bytes()).await.unwrap();
        let mut read = BufReader::new(socket);
        let mut line = String::new();
        read.read_line(&mut line).await.unwrap();
        let status = line.split(' ').nth(1).unwrap().parse().unwrap();
        let mut headers = Vec::new();
        loop {
            line.clear();
            read.read_line(&mut line).await.unwrap();
            let Some((name, value)) = line.trim_end().split_once(':') else {
                break;
            };
            headers.push((name.trim().to_lowercase(), value.trim().to_owned()));
        }
        let chunked = headers
            .iter()
            .any(|(n, v)| n == "transfer-encoding" && v.contains("chunked"));
        Self {
            read,
            status,
            headers,
            chunked,
            buffer: String::new(),
        }
    }

    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The next event's JSON `data` (events without data, such as SSE priming, are skipped),
    /// or a JSON answer's body.
    async fn next(&mut self) -> Value {
        if self
            .header("content-type")
            .is_some_and(|t| t.starts_with("application/json"))
        {
            let length: usize = self.header("content-length").unwrap().parse().unwrap();
            let mut body = vec![0; length];
            self.read.read_exact(&mut body).await.unwrap();
            return serde_json::from_slice(&body).unwrap();
        }
        tokio::time::timeout(WAIT, async {
            loop {
                if let Some(end) = self.buffer.find("\n\n") {
                    let event: String = self.buffer.drain(..end + 2).collect();
                    let data: String = event
                        .lines()
                        .filter_map(|l| l.strip_prefix("data:"))
                        .map(str::trim)
                        .collect();
                    if !data.is_empty() {
                        return serde_json::from_str(&data).unwrap();
                    }
                    continue;
                }
                self.fill().await;
            }
        })
        .await
        .expect("an event in time")
    }

    async fn fill(&mut self) {
        if self.chunked {
            let mut size = String::new();
            self.read.read_line(&mut size).await.unwrap();
            let size = usize::from_str_radix(size.trim(), 16).expect("a chunk size");
            assert!(size > 0, "the stream ended");
            let mut chunk = vec![0; size + 2];
            self.read.read_exact(&mut chunk).await.unwrap();
            self.buffer
                .push_str(&String::from_utf8_lossy(&chunk[..size]).replace('\r', ""));
        } else {
            let mut chunk = vec![0; 4096];
            let n = self.read.read(&mut chunk).await.unwrap();
            assert!(n > 0, "the stream ended");
            self.buffer
                .push_str(&String::from_utf8_lossy(&chunk[..n]).replace('\r', ""));
        }
    }
}

async fn serve(server: McpServer) -> (SocketAddr, CancellationToken) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let shutdown = CancellationToken::new();
    tokio::spawn(server.serve_http_on(listener, shutdown.clone()));
    (addr, shutdown)
}

/// A POST of `message` on 2025-11-25, in `session` when given.
async fn post(addr: SocketAddr, session: Option<&str>, message: &Value) -> Stream {
    let session = session.map_or_else(String::new, |s| format!("Mcp-Session-Id: {s}\r\n"));
    let head = format!(
        "POST /mcp HTTP/1.1\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2025-11-25\r\n{session}"
    );
    Stream::open(addr, &head, &message.to_string()).await
}

#[tokio::test]
async fn http_2025_11_25_sessions_hear_of_changes_on_their_get_stream() {
    let (server, editor) = changing();
    let (addr, shutdown) = serve(server.clone()).await;
    let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "changes", "version": "1"}
    }});
    let mut answer = post(addr, None, &init).await;
    assert_eq!(answer.status, 200);
    let session = answer.header("mcp-session-id").unwrap().to_owned();
    let reply = answer.next().await;
    assert_eq!(
        reply["result"]["capabilities"]["prompts"],
        json!({"listChanged": true})
    );
    let initialized = notification("notifications/initialized");
    assert_eq!(post(addr, Some(&session), &initialized).await.status, 202);
    let head = format!(
        "GET /mcp HTTP/1.1\r\nAccept: text/event-stream\r\nMCP-Protocol-Version: 2025-11-25\r\n\
         Mcp-Session-Id: {session}\r\n"
    );
    let mut events = Stream::open(addr, &head, "").await;
    assert_eq!(events.status, 200);
    let subscribe = json!({"jsonrpc": "2.0", "id": 1, "method": "resources/subscribe",
                           "params": {"uri": "notes://7"}});
    let mut subscribed = post(addr, Some(&session), &subscribe).await;
    assert_eq!(subscribed.next().await["result"], json!({}));

    editor.add::<greet>();
    assert_eq!(
        events.next().await,
        notification("notifications/prompts/list_changed")
    );
    assert_eq!(server.notify_resource_updated("notes://7").await, 1);
    assert_eq!(
        events.next().await,
        json!({"jsonrpc": "2.0", "method": "notifications/resources/updated",
               "params": {"uri": "notes://7"}})
    );
    assert!(editor.remove_prompt("greet"));
    assert_eq!(
        events.next().await,
        notification("notifications/prompts/list_changed")
    );
    shutdown.cancel();
}

#[tokio::test]
async fn http_2026_07_28_listen_streams_carry_list_changes_and_updates() {
    let (server, editor) = changing();
    let (addr, shutdown) = serve(server.clone()).await;
    let head = "POST /mcp HTTP/1.1\r\nContent-Type: application/json\r\n\
                Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\n\
                Mcp-Method: subscriptions/listen\r\n";
    let body = json!({"jsonrpc": "2.0", "id": 3, "method": "subscriptions/listen",
                      "params": listen_params()});
    let mut stream = Stream::open(addr, head, &body.to_string()).await;
    assert_eq!(stream.status, 200);
    assert_eq!(
        stream.next().await,
        json!({"jsonrpc": "2.0", "method": "notifications/subscriptions/acknowledged",
        "params": {
            "_meta": {"io.modelcontextprotocol/subscriptionId": 3},
            "notifications": {"promptsListChanged": true, "resourcesListChanged": true,
                              "resourceSubscriptions": ["notes://7"]}
        }})
    );
    server.notify_resource_updated("notes://8").await;
    server.notify_resource_updated("notes://7").await;
    assert_eq!(
        stream.next().await,
        tagged(
            "notifications/resources/updated",
            3,
            Some(json!({"uri": "notes://7"}))
        )
    );
    editor.add::<greet>();
    assert_eq!(
        stream.next().await,
        tagged("notifications/prompts/list_changed", 3, None)
    );
    assert!(editor.remove_resource("notes://{id}"));
    assert_eq!(
        stream.next().await,
        tagged("notifications/resources/list_changed", 3, None)
    );
    // The listing a 2026-07-28 request sees is the edited one.
    let head = "POST /mcp HTTP/1.1\r\nContent-Type: application/json\r\n\
                Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\n\
                Mcp-Method: prompts/list\r\n";
    let list = json!({"jsonrpc": "2.0", "id": 4, "method": "prompts/list",
                      "params": {"_meta": meta()}});
    let mut listed = Stream::open(addr, head, &list.to_string()).await;
    assert_eq!(listed.status, 200);
    let names: Vec<Value> = listed.next().await["result"]["prompts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].clone())
        .collect();
    assert_eq!(names, [json!("greet")]);
    shutdown.cancel();
}

#[tokio::test]
async fn the_test_client_hears_of_changes_on_2025_11_25() {
    let (server, editor) = changing();
    let mut client = server.test_client().await.unwrap();
    assert_eq!(client.list_prompts().await.unwrap(), Vec::<Value>::new());
    editor.add::<greet>();
    assert_eq!(
        client.next_notification().await.unwrap(),
        notification("notifications/prompts/list_changed")
    );
    client.subscribe("notes://7").await.unwrap();
    assert_eq!(server.notify_resource_updated("notes://7").await, 1);
    assert_eq!(
        client.next_notification().await.unwrap(),
        json!({"jsonrpc": "2.0", "method": "notifications/resources/updated",
               "params": {"uri": "notes://7"}})
    );
}

#[tokio::test]
async fn the_test_client_speaks_2026_07_28() {
    let (server, editor) = changing();
    let mut client = server.test_client_on("2026-07-28").await.unwrap();
    let discovered = client.initialize_result();
    assert!(
        discovered["supportedVersions"]
            .as_array()
            .unwrap()
            .contains(&json!("2026-07-28")),
        "{discovered}"
    );
    assert_eq!(
        discovered["capabilities"]["prompts"],
        json!({"listChanged": true})
    );
    // No session: the log level rides each request's `_meta`.
    client.set_log_level("debug").await.unwrap();
    let read = client.read_resource("notes://7").await.unwrap();
    assert_eq!(
        Value::Array(read),
        json!([{"uri": "notes://7", "mimeType": "text/plain", "text": "note 7"}])
    );
    let accepted = client
        .listen(json!({"promptsListChanged": true, "resourceSubscriptions": ["notes://7"]}))
        .await
        .unwrap();
    assert_eq!(
        accepted,
        json!({"promptsListChanged": true, "resourceSubscriptions": ["notes://7"]})
    );
    // `resources/subscribe` is legacy: on 2026-07-28 the stream names the URIs instead.
    assert!(matches!(
        client.subscribe("notes://7").await,
        Err(tool_executor::mcp::testing::TestClientError::Rpc { code: -32601, .. })
    ));
    editor.add::<greet>();
    let changed = client.next_notification().await.unwrap();
    assert_eq!(changed["method"], "notifications/prompts/list_changed");
    let id = changed["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"].clone();
    assert!(id.is_number(), "{changed}");
    server.notify_resource_updated("notes://7").await;
    assert_eq!(
        client.next_notification().await.unwrap(),
        json!({"jsonrpc": "2.0", "method": "notifications/resources/updated",
               "params": {"uri": "notes://7", "_meta": {"io.modelcontextprotocol/subscriptionId": id}}})
    );
    let prompt = client
        .get_prompt("greet", json!({"name": "Ada"}))
        .await
        .unwrap();
    assert_eq!(
        prompt["messages"][0]["content"]["text"],
        "Say hello to Ada."
    );
}
