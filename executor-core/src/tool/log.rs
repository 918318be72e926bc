//! Log messages a tool sends its caller: [`LogLevel`], the [`LogSink`] a transport attaches,
//! and [`ToolContext::log`]. Over MCP they become `notifications/message`, filtered by the
//! level the client chose (`logging/setLevel`, or the request's
//! `_meta["io.modelcontextprotocol/logLevel"]` on 2026-07-28).

use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::context::ToolContext;
use super::execution::BoxFuture;

/// The syslog severities MCP uses, least severe first (so `level >= threshold` filters).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LogLevel {
    /// Detail for debugging.
    Debug,
    /// What is happening.
    Info,
    /// Normal but significant.
    Notice,
    /// Something may be wrong.
    Warning,
    /// Something failed.
    Error,
    /// A component failed.
    Critical,
    /// Someone must act now.
    Alert,
    /// The system is unusable.
    Emergency,
}

/// Where a call's log messages go; a transport attaches one to the call's context as a
/// [`Logger`] extension.
pub trait LogSink: Send + Sync {
    /// Whether a message at `level` would be sent (the caller's threshold).
    fn enabled(&self, level: LogLevel) -> bool;

    /// Sends one message. `logger` names the source (the tool). Never fails: a message the
    /// transport cannot deliver (the client is gone) is dropped.
    fn log<'a>(
        &'a self,
        level: LogLevel,
        logger: Option<&'a str>,
        data: Value,
    ) -> BoxFuture<'a, ()>;
}

/// The extension carrying a call's [`LogSink`].
#[derive(Clone)]
pub struct Logger(pub Arc<dyn LogSink>);

impl std::fmt::Debug for Logger {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Logger(..)")
    }
}

impl ToolContext {
    /// Sends a log message to the caller (MCP: `notifications/message`, before the call's
    /// result). A no-op when the transport attached no [`Logger`] or the caller's level filters
    /// `level` out; `data` is any JSON value (a string, an object).
    ///
    /// ```
    /// use tool_executor::prelude::*;
    /// use tool_executor::tool::LogLevel;
    ///
    /// /// Imports rows.
    /// #[tool]
    /// async fn import(ctx: &ToolContext) -> u32 {
    ///     ctx.log(LogLevel::Info, "import started").await;
    ///     42
    /// }
    /// ```
    pub async fn log(&self, level: LogLevel, data: impl Into<Value>) {
        if let Some(Logger(sink)) = self.extension::<Logger>()
            && sink.enabled(level)
        {
            sink.log(level, None, data.into()).await;
        }
    }

    /// Whether a message at `level` would reach the caller: skip building an expensive one
    /// when not.
    #[must_use]
    pub fn logs(&self, level: LogLevel) -> bool {
        self.extension::<Logger>()
            .is_some_and(|Logger(sink)| sink.enabled(level))
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;

    use serde_json::json;

    use super::*;

    struct Recorder {
        threshold: LogLevel,
        seen: Mutex<Vec<(LogLevel, Value)>>,
    }

    impl LogSink for Recorder {
        fn enabled(&self, level: LogLevel) -> bool {
            level >= self.threshold
        }
        fn log<'a>(
            &'a self,
            level: LogLevel,
            _: Option<&'a str>,
            data: Value,
        ) -> BoxFuture<'a, ()> {
            self.seen.lock().unwrap().push((level, data));
            Box::pin(async {})
        }
    }

    #[tokio::test]
    async fn messages_below_the_threshold_are_not_sent() {
        let sink = Arc::new(Recorder {
            threshold: LogLevel::Warning,
            seen: Mutex::default(),
        });
        let ctx = ToolContext::new().with_extension(Logger(sink.clone()));
        ctx.log(LogLevel::Info, "quiet").await;
        ctx.log(LogLevel::Error, json!({"failed": 1})).await;
        assert!(!ctx.logs(LogLevel::Debug));
        assert_eq!(
            *sink.seen.lock().unwrap(),
            vec![(LogLevel::Error, json!({"failed": 1}))]
        );
        // No logger: nothing happens.
        ToolContext::new()
            .log(LogLevel::Emergency, "nobody hears")
            .await;
    }
}
