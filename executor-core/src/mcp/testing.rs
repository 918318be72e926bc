//! [`TestClient`]: an in-memory MCP client for unit tests of a server: no process, no socket.

use std::io;
use std::time::Duration;

use serde_json::{Value, json};
use tokio::io::{
    AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream, Lines, ReadHalf, WriteHalf,
};

use super::server::McpServer;

/// The protocol version [`TestClient`] asks for unless told otherwise.
pub const TEST_PROTOCOL_VERSION: &str = "2025-11-25";

/// How long [`TestClient`] waits for one answer by default.
pub const TEST_TIMEOUT: Duration = Duration::from_secs(10);

/// Why a [`TestClient`] request failed.
#[derive(Debug)]
pub enum TestClientError {
    /// The server answered with a JSON-RPC error.
    Rpc {
        /// The error code (`-32602` invalid params, `-32002` resource not found).
        code: i64,
        /// The message.
        message: String,
    },
    /// No answer within the timeout.
    Timeout,
    /// The server closed the connection, or sent something that is not JSON-RPC.
    Connection(String),
}

impl std::fmt::Display for TestClientError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Rpc { code, message } => write!(f, "JSON-RPC error {code}: {message}"),
            Self::Timeout => f.write_str("the server did not answer in time"),
            Self::Connection(why) => write!(f, "connection: {why}"),
        }
    }
}

impl std::error::Error for TestClientError {}

/// An MCP client wired to an [`McpServer`] in memory ([`McpServer::test_client`]), for a
/// server's unit tests: list and call tools, get prompts, read resources, complete, set the log
/// level, subscribe. Answers come back as the wire's JSON (compare them with `json!`);
/// notifications the server sent meanwhile (log messages, progress, resource updates) are kept
/// in order for [`notifications`](Self::notifications). A request the server makes of the
/// client (sampling, elicitation) is answered "method not found". One request at a time.
///
/// ```
/// use tool_executor::prelude::*;
/// use tool_executor::tool::Image;
///
/// /// A one-pixel image.
/// #[tool]
/// fn pixel() -> Image { Image::from_base64("AA==", "image/png") }
///
/// /// Greets someone.
/// #[prompt]
/// fn greet(name: String) -> String { format!("Say hello to {name}.") }
///
/// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
/// let server = tool_executor::mcp_server!(toolset![pixel]).with_catalog(catalog![greet]);
/// let mut client = server.test_client().await.unwrap();
/// let result = client.call_tool("pixel", json!({})).await.unwrap();
/// assert_eq!(result["content"], json!([{"type": "image", "data": "AA==", "mimeType": "image/png"}]));
/// let prompt = client.get_prompt("greet", json!({"name": "Ada"})).await.unwrap();
/// assert_eq!(prompt["messages"][0]["content"]["text"], "Say hello to Ada.");
/// # });
/// ```
pub struct TestClient {
    write: WriteHalf<DuplexStream>,
    read: Lines<BufReader<ReadHalf<DuplexStream>>>,
    next_id: i64,
    timeout: Duration,
    notifications: Vec<Value>,
    initialize: Value,
    /// On 2026-07-28 and later: what each request carries in `_meta` instead of a session
    /// (the protocol version, capabilities, client info, and the log level once set).
    inline_meta: Option<serde_json::Map<String, Value>>,
}

/// The first protocol version without `initialize`: each request carries its `_meta`.
const INLINE_FROM: &str = "2026-07-28";

impl std::fmt::Debug for TestClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TestClient").finish_non_exhaustive()
    }
}

impl McpServer {
    /// Serves this server to a [`TestClient`] in memory, after the `initialize` handshake on
    /// protocol [`TEST_PROTOCOL_VERSION`].
    ///
    /// # Errors
    /// The handshake failed.
    pub async fn test_client(&self) -> Result<TestClient, TestClientError> {
        self.test_client_on(TEST_PROTOCOL_VERSION).await
    }

    /// [`test_client`](Self::test_client) on protocol `version` (`"2025-06-18"`, …). From
    /// `"2026-07-28"` on there is no handshake: each request carries the version, capabilities
    /// and client info in its `_meta`, and
    /// [`initialize_result`](TestClient::initialize_result) is the server's `server/discover`
    /// answer.
    ///
    /// # Errors
    /// The handshake failed.
    pub async fn test_client_on(&self, version: &str) -> Result<TestClient, TestClientError> {
        self.connect_test_client(version, json!({})).await
    }

    /// [`test_client`](Self::test_client) declaring `capabilities` (`{"sampling": {}}`); the
    /// client still answers every server request "method not found".
    ///
    /// # Errors
    /// The handshake failed.
    pub async fn test_client_with_capabilities(
        &self,
        capabilities: Value,
    ) -> Result<TestClient, TestClientError> {
        self.connect_test_client(TEST_PROTOCOL_VERSION, capabilities)
            .await
    }

    async fn connect_test_client(
        &self,
        version: &str,
        capabilities: Value,
    ) -> Result<TestClient, TestClientError> {
        let (client, server_end) = tokio::io::duplex(1 << 16);
        let (server_read, server_write) = tokio::io::split(server_end);
        // Ends when the client is dropped (its end of the pipe closes).
        tokio::spawn(self.clone().serve_io(server_read, server_write));
        let (read, write) = tokio::io::split(client);
        let client_info =
            json!({"name": "tool-executor-test-client", "version": env!("CARGO_PKG_VERSION")});
        // Dates compare as text.
        let inline_meta = (version >= INLINE_FROM).then(|| {
            let mut meta = serde_json::Map::new();
            meta.insert(
                "io.modelcontextprotocol/protocolVersion".into(),
                version.into(),
            );
            meta.insert(
                "io.modelcontextprotocol/clientCapabilities".into(),
                capabilities.clone(),
            );
            meta.insert(
                "io.modelcontextprotocol/clientInfo".into(),
                client_info.clone(),
            );
            meta
        });
        let mut client = TestClient {
            write,
            read: BufReader::new(read).lines(),
            next_id: 0,
            timeout: TEST_TIMEOUT,
            notifications: Vec::new(),
            initialize: Value::Null,
            inline_meta,
        };
        if client.inline_meta.is_some() {
            client.initialize = client.request("server/discover", json!({})).await?;
            return Ok(client);
        }
        let params = json!({
            "protocolVersion": version,
            "capabilities": capabilities,
            "clientInfo": client_info,
        });
        client.initialize = client.request("initialize", params).await?;
        client
            .send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
            .await?;
        Ok(client)
    }
}

impl TestClient {
    /// Waits at most `timeout` for each answer (default [`TEST_TIMEOUT`]).
    #[must_use]
    pub fn with_timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// The server's `initialize` result (capabilities, server info); on 2026-07-28, its
    /// `server/discover` result.
    #[must_use]
    pub fn initialize_result(&self) -> &Value {
        &self.initialize
    }

    /// Notifications received so far, oldest first; taken (the list is emptied).
    pub fn notifications(&mut self) -> Vec<Value> {
        std::mem::take(&mut self.notifications)
    }

    /// Any request: its `result`.
    ///
    /// # Errors
    /// A JSON-RPC error, no answer in time, or a closed connection.
    pub async fn request(&mut self, method: &str, params: Value) -> Result<Value, TestClientError> {
        let id = self.send_request(method, params).await?;
        let deadline = tokio::time::Instant::now() + self.timeout;
        loop {
            let message = self.read_message(deadline).await?;
            match (message.get("id"), message.get("method")) {
                (Some(got), None) if *got == id => return outcome(message),
                (Some(other), Some(_)) => {
                    // The server asks something of the client: this client serves nothing.
                    let refusal = json!({"jsonrpc": "2.0", "id": other, "error": {
                        "code": -32601, "message": "the test client serves no requests"}});
                    self.send(refusal).await?;
                }
                (None, Some(_)) => self.notifications.push(message),
                _ => {
                    return Err(TestClientError::Connection(format!(
                        "an answer to another request: {message}"
                    )));
                }
            }
        }
    }

    /// Sends request `method` (with the 2026-07-28 `_meta`, on that version); its id.
    async fn send_request(
        &mut self,
        method: &str,
        params: Value,
    ) -> Result<Value, TestClientError> {
        let mut params = params;
        if let Some(inline) = &self.inline_meta {
            if !params.is_object() {
                params = json!({});
            }
            let meta = params
                .as_object_mut()
                .map(|p| p.entry("_meta").or_insert_with(|| json!({})));
            if let Some(Value::Object(meta)) = meta {
                for (key, value) in inline {
                    meta.entry(key.clone()).or_insert_with(|| value.clone());
                }
            }
        }
        self.next_id += 1;
        let id = json!(self.next_id);
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))
            .await?;
        Ok(id)
    }

    /// The next message, by `deadline`.
    async fn read_message(
        &mut self,
        deadline: tokio::time::Instant,
    ) -> Result<Value, TestClientError> {
        let message = tokio::time::timeout_at(deadline, self.read.next_line())
            .await
            .map_err(|_| TestClientError::Timeout)?
            .map_err(|e| TestClientError::Connection(e.to_string()))?
            .ok_or_else(|| TestClientError::Connection("the server closed the pipe".into()))?;
        serde_json::from_str(&message)
            .map_err(|e| TestClientError::Connection(format!("not JSON: {e}")))
    }

    /// The next notification: the oldest one kept, else the next the server sends (within the
    /// timeout). What tests wait on for list changes and resource updates.
    ///
    /// # Errors
    /// None in time, a closed connection, or an answer nobody asked for.
    pub async fn next_notification(&mut self) -> Result<Value, TestClientError> {
        if !self.notifications.is_empty() {
            return Ok(self.notifications.remove(0));
        }
        let deadline = tokio::time::Instant::now() + self.timeout;
        let message = self.read_message(deadline).await?;
        if message.get("id").is_none() && message.get("method").is_some() {
            return Ok(message);
        }
        Err(TestClientError::Connection(format!(
            "a message that is not a notification: {message}"
        )))
    }

    /// `subscriptions/listen` (2026-07-28) for `notifications` (`{"promptsListChanged": true,
    /// "resourceSubscriptions": ["notes://7"]}`): the filter the server accepted. The stream
    /// stays open; what it carries arrives through
    /// [`next_notification`](Self::next_notification), tagged with its subscription id. Only
    /// the stream's acknowledgment is awaited, so make other requests after it.
    ///
    /// # Errors
    /// As [`request`](Self::request); the server refusing the stream is its JSON-RPC error.
    pub async fn listen(&mut self, notifications: Value) -> Result<Value, TestClientError> {
        let id = self
            .send_request(
                "subscriptions/listen",
                json!({"notifications": notifications}),
            )
            .await?;
        let deadline = tokio::time::Instant::now() + self.timeout;
        loop {
            let message = self.read_message(deadline).await?;
            if message.get("id") == Some(&id) {
                outcome(message)?;
                return Err(TestClientError::Connection(
                    "the listen stream ended at once".into(),
                ));
            }
            if message["method"] == "notifications/subscriptions/acknowledged" {
                return Ok(message["params"]["notifications"].clone());
            }
            if message.get("id").is_none() {
                self.notifications.push(message);
            }
        }
    }

    async fn send(&mut self, message: Value) -> Result<(), TestClientError> {
        let mut line = message.to_string();
        line.push('\n');
        self.write
            .write_all(line.as_bytes())
            .await
            .map_err(|e: io::Error| TestClientError::Connection(e.to_string()))
    }

    /// `tools/list`: the tools.
    ///
    /// # Errors
    /// As [`request`](Self::request).
    pub async fn list_tools(&mut self) -> Result<Vec<Value>, TestClientError> {
        let result = self.request("tools/list", json!({})).await?;
        Ok(items(result, "tools"))
    }

    /// `tools/call`: the `CallToolResult` (a tool's failure is `isError: true`, not an `Err`).
    ///
    /// # Errors
    /// As [`request`](Self::request) (an unknown tool is a JSON-RPC error).
    pub async fn call_tool(
        &mut self,
        name: &str,
        arguments: Value,
    ) -> Result<Value, TestClientError> {
        self.request("tools/call", json!({"name": name, "arguments": arguments}))
            .await
    }

    /// `prompts/list`: the prompts.
    ///
    /// # Errors
    /// As [`request`](Self::request).
    pub async fn list_prompts(&mut self) -> Result<Vec<Value>, TestClientError> {
        let result = self.request("prompts/list", json!({})).await?;
        Ok(items(result, "prompts"))
    }

    /// `prompts/get`: the `GetPromptResult`.
    ///
    /// # Errors
    /// As [`request`](Self::request).
    pub async fn get_prompt(
        &mut self,
        name: &str,
        arguments: Value,
    ) -> Result<Value, TestClientError> {
        self.request("prompts/get", json!({"name": name, "arguments": arguments}))
            .await
    }

    /// `resources/list`: the fixed resources.
    ///
    /// # Errors
    /// As [`request`](Self::request).
    pub async fn list_resources(&mut self) -> Result<Vec<Value>, TestClientError> {
        let result = self.request("resources/list", json!({})).await?;
        Ok(items(result, "resources"))
    }

    /// `resources/templates/list`: the templates.
    ///
    /// # Errors
    /// As [`request`](Self::request).
    pub async fn list_resource_templates(&mut self) -> Result<Vec<Value>, TestClientError> {
        let result = self.request("resources/templates/list", json!({})).await?;
        Ok(items(result, "resourceTemplates"))
    }

    /// `resources/read`: the contents.
    ///
    /// # Errors
    /// As [`request`](Self::request) (an unknown URI is error `-32002`).
    pub async fn read_resource(&mut self, uri: &str) -> Result<Vec<Value>, TestClientError> {
        let result = self.request("resources/read", json!({"uri": uri})).await?;
        Ok(items(result, "contents"))
    }

    /// `resources/subscribe` (2025-11-25; on 2026-07-28 a [`listen`](Self::listen) stream
    /// names the URIs it follows instead).
    ///
    /// # Errors
    /// As [`request`](Self::request).
    pub async fn subscribe(&mut self, uri: &str) -> Result<(), TestClientError> {
        self.request("resources/subscribe", json!({"uri": uri}))
            .await
            .map(drop)
    }

    /// `resources/unsubscribe`.
    ///
    /// # Errors
    /// As [`request`](Self::request).
    pub async fn unsubscribe(&mut self, uri: &str) -> Result<(), TestClientError> {
        self.request("resources/unsubscribe", json!({"uri": uri}))
            .await
            .map(drop)
    }

    /// `completion/complete` for argument `argument` of prompt `prompt`: the values.
    ///
    /// # Errors
    /// As [`request`](Self::request).
    pub async fn complete_prompt(
        &mut self,
        prompt: &str,
        argument: &str,
        value: &str,
    ) -> Result<Vec<String>, TestClientError> {
        let params = json!({
            "ref": {"type": "ref/prompt", "name": prompt},
            "argument": {"name": argument, "value": value},
        });
        let result = self.request("completion/complete", params).await?;
        Ok(result["completion"]["values"]
            .as_array()
            .map(|v| {
                v.iter()
                    .filter_map(|s| s.as_str().map(str::to_owned))
                    .collect()
            })
            .unwrap_or_default())
    }

    /// `logging/setLevel` (`"debug"`, `"info"`, … `"emergency"`); on 2026-07-28, where the
    /// level rides each request, every later request carries it in its `_meta`.
    ///
    /// # Errors
    /// As [`request`](Self::request).
    pub async fn set_log_level(&mut self, level: &str) -> Result<(), TestClientError> {
        if let Some(meta) = &mut self.inline_meta {
            meta.insert("io.modelcontextprotocol/logLevel".into(), level.into());
            return Ok(());
        }
        self.request("logging/setLevel", json!({"level": level}))
            .await
            .map(drop)
    }
}

/// A JSON-RPC answer as its result or error.
fn outcome(mut message: Value) -> Result<Value, TestClientError> {
    if let Some(error) = message.get("error") {
        return Err(TestClientError::Rpc {
            code: error["code"].as_i64().unwrap_or(0),
            message: error["message"].as_str().unwrap_or_default().to_owned(),
        });
    }
    Ok(message
        .get_mut("result")
        .map(Value::take)
        .unwrap_or_default())
}

fn items(mut result: Value, key: &str) -> Vec<Value> {
    match result.get_mut(key).map(Value::take) {
        Some(Value::Array(items)) => items,
        _ => Vec::new(),
    }
}
