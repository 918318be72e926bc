//! rmcp's HTTP client with a bearer token from a [`TokenProvider`] on every request: asked
//! before the first (or, for a provider that waits for the server's challenge, after the first
//! 401), and again after a 401 or a 403 `insufficient_scope` (the refused request is then sent
//! once more, so a server that keeps refusing is not asked in a loop).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use futures_util::stream::BoxStream;
use http::{HeaderName, HeaderValue};
use rmcp::model::ClientJsonRpcMessage;
use rmcp::transport::streamable_http_client::{
    SseError, StreamableHttpClient, StreamableHttpError, StreamableHttpPostResponse,
    StreamableHttpResponseLimits,
};
use sse_stream::Sse;

use crate::auth::TokenProvider;

type Failed = StreamableHttpError<reqwest::Error>;

/// `inner` sending `tokens`' bearer tokens for `resource`.
#[derive(Clone)]
pub(super) struct Authorized {
    pub(super) inner: reqwest::Client,
    pub(super) resource: Arc<str>,
    pub(super) tokens: Arc<dyn TokenProvider>,
    /// The last 401's (or 403's) challenge, for the provider's discovery.
    pub(super) challenge: Arc<Mutex<Option<String>>>,
}

impl Authorized {
    /// The token for the next request: none yet for a provider that waits for the server's
    /// first challenge.
    async fn current(&self) -> Result<Option<String>, Failed> {
        let challenged = self
            .challenge
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .is_some();
        if !challenged && self.tokens.waits_for_challenge() {
            return Ok(None);
        }
        self.token(None).await.map(Some)
    }

    async fn token(&self, stale: Option<&str>) -> Result<String, Failed> {
        let challenge = self
            .challenge
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone();
        self.tokens
            .token(&self.resource, challenge.as_deref(), stale)
            .await
            .map_err(|why| {
                StreamableHttpError::UnexpectedServerResponse(
                    format!("no bearer token for {}: {why}", self.resource).into(),
                )
            })
    }

    fn remember(&self, challenge: &str) {
        *self
            .challenge
            .lock()
            .unwrap_or_else(PoisonError::into_inner) = Some(challenge.to_owned());
    }
}

impl StreamableHttpClient for Authorized {
    type Error = reqwest::Error;

    async fn post_message(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        _auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<StreamableHttpPostResponse, Failed> {
        self.post_message_with_response_limits(
            uri,
            message,
            session_id,
            None,
            custom_headers,
            StreamableHttpResponseLimits::default(),
        )
        .await
    }

    async fn post_message_with_response_limits(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        _auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
        limits: StreamableHttpResponseLimits,
    ) -> Result<StreamableHttpPostResponse, Failed> {
        let token = self.current().await?;
        let first = self
            .inner
            .post_message_with_response_limits(
                Arc::clone(&uri),
                message.clone(),
                session_id.clone(),
                token.clone(),
                custom_headers.clone(),
                limits,
            )
            .await;
        let challenge = match &first {
            Err(StreamableHttpError::AuthRequired(refused)) => {
                Some(refused.www_authenticate_header.as_str())
            }
            Err(StreamableHttpError::InsufficientScope(refused)) => {
                Some(refused.www_authenticate_header.as_str())
            }
            _ => None,
        };
        match challenge {
            Some(challenge) => {
                self.remember(challenge);
                let token = self.token(token.as_deref()).await?;
                self.inner
                    .post_message_with_response_limits(
                        uri,
                        message,
                        session_id,
                        Some(token),
                        custom_headers,
                        limits,
                    )
                    .await
            }
            None => first,
        }
    }

    async fn delete_session(
        &self,
        uri: Arc<str>,
        session_id: Arc<str>,
        _auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<(), Failed> {
        let token = self.current().await?;
        self.inner
            .delete_session(uri, session_id, token, custom_headers)
            .await
    }

    async fn get_stream(
        &self,
        uri: Arc<str>,
        session_id: Option<Arc<str>>,
        last_event_id: Option<String>,
        _auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<BoxStream<'static, Result<Sse, SseError>>, Failed> {
        let token = self.current().await?;
        self.inner
            .get_stream(uri, session_id, last_event_id, token, custom_headers)
            .await
    }

    async fn get_stream_with_max_sse_event_size(
        &self,
        uri: Arc<str>,
        session_id: Option<Arc<str>>,
        last_event_id: Option<String>,
        _auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
        max_sse_event_size: usize,
    ) -> Result<BoxStream<'static, Result<Sse, SseError>>, Failed> {
        let token = self.current().await?;
        self.inner
            .get_stream_with_max_sse_event_size(
                uri,
                session_id,
                last_event_id,
                token,
                custom_headers,
                max_sse_event_size,
            )
            .await
    }
}
