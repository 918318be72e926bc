//! The MCP wire of what a server offers beside tools: a [`Catalog`]'s prompts, resources,
//! templates and completions; `logging/setLevel` and the [`LogSink`] behind
//! [`ToolContext::log`]; resource subscriptions; and [`ClientModel`], a tool's way to ask the
//! client's model (sampling, legacy).

// Logging and sampling are deprecated in MCP 2026-07-28 (SEP-2577) but remain in it for at
// least a year and are what 2025-11-25 clients (and the conformance suite) use.
#![allow(deprecated)]

use std::sync::atomic::Ordering;
use std::sync::{Arc, PoisonError};

use rmcp::model::{
    CacheScope, CompleteRequestParams, CompleteResult, CompletionInfo, ErrorCode, ErrorData,
    GetPromptRequestParams, GetPromptResult, ListPromptsResult, ListResourceTemplatesResult,
    ListResourcesResult, LoggingLevel, LoggingMessageNotificationParam, ReadResourceRequestParams,
    ReadResourceResult, Reference, ResourceUpdatedNotificationParam,
};
use rmcp::service::{Peer, RequestContext, RoleServer};
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use super::offer::{MAX_LOG_LEVELS, MAX_SUBSCRIPTIONS};
use super::server::McpServer;
use crate::catalog::{Catalog, CatalogError, CompletionRef, ResourceSpec, ResourceUri};
use crate::failure::{FailureKind, ToolFailure};
use crate::tool::{BoxFuture, LogLevel, LogSink, Logger, ToolContext};

/// MCP's error code for a resource that does not exist.
const RESOURCE_NOT_FOUND: i32 = -32002;

fn level_of(level: LoggingLevel) -> LogLevel {
    // The same eight names on both sides.
    serde_json::to_value(level)
        .ok()
        .and_then(|v| serde_json::from_value(v).ok())
        .unwrap_or(LogLevel::Debug)
}

fn wire_level(level: LogLevel) -> LoggingLevel {
    serde_json::to_value(level)
        .ok()
        .and_then(|v| serde_json::from_value(v).ok())
        .unwrap_or(LoggingLevel::Debug)
}

/// Sends a call's log messages as `notifications/message` at or above `threshold`.
struct McpLog {
    peer: Peer<RoleServer>,
    threshold: LogLevel,
    logger: String,
}

impl LogSink for McpLog {
    fn enabled(&self, level: LogLevel) -> bool {
        level >= self.threshold
    }

    fn log<'a>(
        &'a self,
        level: LogLevel,
        logger: Option<&'a str>,
        data: Value,
    ) -> BoxFuture<'a, ()> {
        Box::pin(async move {
            let mut param = LoggingMessageNotificationParam::new(wire_level(level), data);
            param.logger = Some(logger.unwrap_or(&self.logger).to_owned());
            // A client that is gone loses the message, not the call.
            let _ = self.peer.notify_logging_message(param).await;
        })
    }
}

/// A tool's way to ask the client's model (MCP sampling, `sampling/createMessage`), attached
/// to the calls an [`McpServer`] serves for a client that declared the `sampling` capability
/// (`ctx.require_extension::<ClientModel>()` fails with `missing_extension` for any other).
/// Sampling is deprecated in MCP 2026-07-28 and works on 2025-11-25 sessions only: on a
/// 2026-07-28 connection, or a stateless server, [`ask`](Self::ask) fails.
///
/// ```
/// use tool_executor::mcp::ClientModel;
/// use tool_executor::prelude::*;
///
/// /// Asks the client's model.
/// #[tool]
/// async fn summarize(text: String, ctx: &ToolContext) -> Result<String, ToolFailure> {
///     let model = ctx.require_extension::<ClientModel>()?;
///     model.ask(format!("Summarize: {text}"), 200).await
/// }
/// ```
#[derive(Clone)]
pub struct ClientModel {
    peer: Peer<RoleServer>,
}

impl std::fmt::Debug for ClientModel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ClientModel(..)")
    }
}

impl ClientModel {
    /// Sends `prompt` as one user message (at most `max_tokens` in the reply) and returns the
    /// text of the model's answer.
    ///
    /// # Errors
    /// The client refused or does not support sampling, the connection is 2026-07-28 or
    /// stateless, or the answer is not text.
    pub async fn ask(
        &self,
        prompt: impl Into<String>,
        max_tokens: u32,
    ) -> Result<String, ToolFailure> {
        let params: rmcp::model::CreateMessageRequestParams = serde_json::from_value(json!({
            "messages": [{"role": "user", "content": {"type": "text", "text": prompt.into()}}],
            "maxTokens": max_tokens,
        }))
        .map_err(|e| ToolFailure::internal(format!("sampling request: {e}")))?;
        let answer = self.peer.create_message(params).await.map_err(|e| {
            ToolFailure::terminal(format!("the client's model did not answer: {e}"))
        })?;
        let message = serde_json::to_value(&answer.message).unwrap_or_default();
        message["content"]["text"]
            .as_str()
            .map(str::to_owned)
            .ok_or_else(|| ToolFailure::terminal("the client's model answered without text"))
    }
}

impl McpServer {
    /// Serves `catalog`'s prompts, resources and resource templates beside the tools, with
    /// `completion/complete` and resource subscriptions (see [`Catalog`]).
    #[must_use]
    pub fn with_catalog(self, catalog: Catalog) -> Self {
        self.edit(|inner| inner.offer = Arc::new(inner.offer.with_catalog(catalog)))
    }

    /// Adds an icon to the server's `serverInfo` (an `https:` or `data:` image).
    #[must_use]
    pub fn with_icon(self, icon: crate::tool::Icon) -> Self {
        // Both are MCP's `Icon`.
        let icon = serde_json::to_value(icon).and_then(serde_json::from_value::<rmcp::model::Icon>);
        self.edit(|inner| {
            if let Ok(icon) = icon {
                inner.info.icons.get_or_insert_with(Vec::new).push(icon);
            }
        })
    }

    /// How long clients may keep `tools/list`, `prompts/list`, `resources/list` and
    /// `resources/templates/list` results (`ttlMs`), and who may share a cached copy
    /// (`cacheScope`: `Private`, the caller's client only, or `Public`). Unset by default: the
    /// results carry neither, which clients read as "do not cache".
    #[must_use]
    pub fn with_list_ttl(self, ttl: std::time::Duration, scope: CacheScope) -> Self {
        let ttl = u64::try_from(ttl.as_millis()).unwrap_or(u64::MAX);
        self.edit(|inner| {
            let mut offer = inner.offer.fresh();
            offer.list_cache = Some((ttl, scope));
            inner.offer = Arc::new(offer);
        })
    }

    /// Sends `notifications/resources/updated` for `uri` to every 2025-11-25 session
    /// subscribed to it (`resources/subscribe`) and every 2026-07-28 `subscriptions/listen`
    /// stream that named it in `resourceSubscriptions`; returns how many sessions were told
    /// (the streams are told beside them, and not counted).
    pub async fn notify_resource_updated(&self, uri: &str) -> usize {
        // No listener, no error: the update is for whoever listens now.
        let _ = self.offer().updates.send(uri.into());
        let peers: Vec<Peer<RoleServer>> = self
            .offer()
            .subscriptions
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(uri)
            .map(|subs| subs.iter().map(|(_, peer)| peer.clone()).collect())
            .unwrap_or_default();
        let mut told = 0;
        for peer in peers {
            let param = ResourceUpdatedNotificationParam::new(uri);
            if peer.notify_resource_updated(param).await.is_ok() {
                told += 1;
            }
        }
        told
    }

    /// The call's context with a [`Logger`] (when the caller chose a level, by
    /// `logging/setLevel` on its session or the request's `_meta`) and a [`ClientModel`].
    pub(crate) fn attach_client(
        &self,
        ctx: ToolContext,
        tool: &str,
        context: &RequestContext<RoleServer>,
        session: Option<&str>,
    ) -> ToolContext {
        let chosen = context.meta.log_level().map(level_of).or_else(|| {
            let session = session.filter(|_| self.offer().any_level.load(Ordering::Relaxed))?;
            let levels = self
                .offer()
                .levels
                .lock()
                .unwrap_or_else(PoisonError::into_inner);
            levels.get(session).copied()
        });
        // Only for a client that can answer: no allocation on the calls of any other.
        let samples = context
            .peer
            .peer_info()
            .is_some_and(|info| info.capabilities.sampling.is_some());
        let ctx = if samples {
            ctx.with_extension(ClientModel {
                peer: context.peer.clone(),
            })
        } else {
            ctx
        };
        match chosen {
            Some(threshold) => ctx.with_extension(Logger(Arc::new(McpLog {
                peer: context.peer.clone(),
                threshold,
                logger: tool.to_owned(),
            }))),
            None => ctx,
        }
    }

    pub(crate) fn set_log_level(&self, level: LoggingLevel, session: Option<&str>) {
        // Without a session (stateless HTTP) there is nothing to remember it for; 2026-07-28
        // clients send the level in each request's `_meta` instead.
        let Some(session) = session else { return };
        let mut levels = self
            .offer()
            .levels
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if levels.len() >= MAX_LOG_LEVELS
            && !levels.contains_key(session)
            && let Some(old) = levels.keys().next().cloned()
        {
            levels.remove(&old);
        }
        levels.insert(session.into(), level_of(level));
        self.offer().any_level.store(true, Ordering::Relaxed);
    }

    fn catalog_or_not_found(&self, method: &str) -> Result<&Catalog, ErrorData> {
        self.offer().catalog.as_deref().ok_or_else(|| {
            ErrorData::new(
                ErrorCode::METHOD_NOT_FOUND,
                format!("this server has no prompts or resources (`{method}`)"),
                None,
            )
        })
    }

    pub(crate) fn list_prompts_wire(&self) -> Result<ListPromptsResult, ErrorData> {
        let catalog = self.catalog_or_not_found("prompts/list")?;
        let prompts = catalog
            .prompts()
            .iter()
            .map(|p| wire(&**p))
            .collect::<Result<_, _>>()?;
        Ok(self
            .offer()
            .cache(ListPromptsResult::with_all_items(prompts)))
    }

    pub(crate) async fn get_prompt_wire(
        &self,
        request: GetPromptRequestParams,
        context: &RequestContext<RoleServer>,
    ) -> Result<GetPromptResult, ErrorData> {
        let catalog = self.catalog_or_not_found("prompts/get")?;
        let arguments = request.arguments.unwrap_or_default();
        let ctx = self.catalog_context(&request.name, context);
        let result = catalog
            .get_prompt_with_context(&request.name, &arguments, &ctx)
            .await
            .map_err(error_of)?;
        wire_result(&result)
    }

    pub(crate) fn list_resources_wire(&self) -> Result<ListResourcesResult, ErrorData> {
        let catalog = self.catalog_or_not_found("resources/list")?;
        let resources = catalog
            .resources()
            .iter()
            .map(|s| wire(&listing(s)))
            .collect::<Result<_, _>>()?;
        Ok(self
            .offer()
            .cache(ListResourcesResult::with_all_items(resources)))
    }

    pub(crate) fn list_templates_wire(&self) -> Result<ListResourceTemplatesResult, ErrorData> {
        let catalog = self.catalog_or_not_found("resources/templates/list")?;
        let templates = catalog
            .templates()
            .iter()
            .map(|s| wire(&listing(s)))
            .collect::<Result<_, _>>()?;
        Ok(self
            .offer()
            .cache(ListResourceTemplatesResult::with_all_items(templates)))
    }

    pub(crate) async fn read_resource_wire(
        &self,
        request: ReadResourceRequestParams,
        context: &RequestContext<RoleServer>,
    ) -> Result<ReadResourceResult, ErrorData> {
        let catalog = self.catalog_or_not_found("resources/read")?;
        let ctx = self.catalog_context(&request.uri, context);
        let contents = catalog
            .read_with_context(&request.uri, &ctx)
            .await
            .map_err(error_of)?;
        wire_result(&json!({ "contents": contents }))
    }

    pub(crate) fn subscribe_wire(
        &self,
        uri: String,
        context: &RequestContext<RoleServer>,
        session: Option<&str>,
    ) -> Result<(), ErrorData> {
        let catalog = self.catalog_or_not_found("resources/subscribe")?;
        if !catalog.serves(&uri) {
            return Err(error_of(CatalogError::UnknownResource(uri)));
        }
        let mut subs = self
            .offer()
            .subscriptions
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        subs.retain(|_, peers| {
            peers.retain(|(_, peer)| !peer.is_transport_closed());
            !peers.is_empty()
        });
        if subs.values().map(Vec::len).sum::<usize>() >= MAX_SUBSCRIPTIONS {
            return Err(ErrorData::new(
                ErrorCode::INTERNAL_ERROR,
                "too many resource subscriptions on this server; unsubscribe from some first",
                None,
            ));
        }
        let session: Option<Arc<str>> = session.map(Into::into);
        let peers = subs.entry(uri).or_default();
        if !peers.iter().any(|(s, _)| s.is_some() && *s == session) {
            peers.push((session, context.peer.clone()));
        }
        Ok(())
    }

    pub(crate) fn unsubscribe_wire(&self, uri: &str, session: Option<&str>) {
        let mut subs = self
            .offer()
            .subscriptions
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if let Some(peers) = subs.get_mut(uri) {
            peers.retain(|(s, _)| s.as_deref() != session);
            if peers.is_empty() {
                subs.remove(uri);
            }
        }
    }

    pub(crate) fn complete_wire(
        &self,
        request: &CompleteRequestParams,
    ) -> Result<CompleteResult, ErrorData> {
        let catalog = self.catalog_or_not_found("completion/complete")?;
        let target = match &request.r#ref {
            Reference::Prompt(p) => CompletionRef::Prompt(&p.name),
            Reference::Resource(r) => CompletionRef::Resource(&r.uri),
            _ => {
                return Err(ErrorData::invalid_params(
                    "unknown completion `ref` type",
                    None,
                ));
            }
        };
        let values = catalog
            .complete(target, &request.argument.name, &request.argument.value)
            .map_err(error_of)?;
        let total = u32::try_from(values.len()).ok();
        let mut info = CompletionInfo::default();
        info.values = values;
        info.total = total;
        info.has_more = Some(false);
        Ok(CompleteResult::new(info))
    }
}

/// A resource's listing: `uri` or `uriTemplate`, name, title, description, MIME type.
fn listing(spec: &ResourceSpec) -> Value {
    let mut out = serde_json::Map::new();
    match &spec.uri {
        ResourceUri::Fixed(uri) => out.insert("uri".into(), uri.as_str().into()),
        ResourceUri::Template(t) => out.insert("uriTemplate".into(), t.as_str().into()),
    };
    out.insert("name".into(), spec.name.as_str().into());
    for (key, value) in [
        ("title", &spec.title),
        ("description", &spec.description),
        ("mimeType", &spec.mime_type),
    ] {
        if let Some(value) = value {
            out.insert(key.into(), value.as_str().into());
        }
    }
    if !spec.icons.is_empty() {
        out.insert("icons".into(), json!(spec.icons));
    }
    Value::Object(out)
}

/// Our value as rmcp's type: both are MCP's wire shape.
fn wire<T: DeserializeOwned>(ours: &impl serde::Serialize) -> Result<T, ErrorData> {
    serde_json::to_value(ours)
        .and_then(serde_json::from_value)
        .map_err(|e| ErrorData::internal_error(format!("result not in MCP's shape: {e}"), None))
}

/// A whole result as rmcp's type, marked complete (`resultType`, which 2026-07-28 requires and
/// rmcp strips for older clients).
fn wire_result<T: DeserializeOwned>(ours: &impl serde::Serialize) -> Result<T, ErrorData> {
    let mut value = serde_json::to_value(ours)
        .map_err(|e| ErrorData::internal_error(format!("result not in MCP's shape: {e}"), None))?;
    if let Value::Object(map) = &mut value {
        map.insert("resultType".into(), "complete".into());
    }
    wire(&value)
}

/// A catalog failure as a JSON-RPC error: an unknown prompt or a bad argument is -32602, an
/// unknown resource -32002 (with its URI), anything else the failure's message as -32603.
fn error_of(error: CatalogError) -> ErrorData {
    match error {
        CatalogError::UnknownPrompt(_) => ErrorData::invalid_params(error.to_string(), None),
        CatalogError::UnknownResource(ref uri) => ErrorData::new(
            ErrorCode(RESOURCE_NOT_FOUND),
            error.to_string(),
            Some(json!({ "uri": uri })),
        ),
        CatalogError::Failed(failure) if failure.kind() == FailureKind::InvalidArguments => {
            ErrorData::invalid_params(failure.message().to_owned(), None)
        }
        CatalogError::Failed(failure) => {
            ErrorData::internal_error(failure.message().to_owned(), None)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::{PromptMessage, PromptResult};

    #[test]
    fn whole_results_are_marked_complete_for_2026_07_28_clients() {
        // The official Python client (2026-07-28) rejects a `prompts/get` or `resources/read`
        // result without `resultType`.
        let prompt = PromptResult {
            description: None,
            messages: vec![PromptMessage::user("hi")],
        };
        let result: GetPromptResult = wire_result(&prompt).unwrap();
        assert_eq!(
            serde_json::to_value(result).unwrap()["resultType"],
            "complete"
        );
        let read: ReadResourceResult = wire_result(&json!({"contents": []})).unwrap();
        assert_eq!(
            serde_json::to_value(read).unwrap()["resultType"],
            "complete"
        );
    }
}
