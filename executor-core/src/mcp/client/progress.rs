//! Progress from the server to the call that asked for it: the relay every connection routes
//! `notifications/progress` through (the client handler rmcp runs), and the wait that passes a
//! call's progress on to its context.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, PoisonError};

use rmcp::ClientHandler;
use rmcp::model::{
    ClientCapabilities, ClientConfig, Implementation, ProgressNotificationParam, ProgressToken,
    ProtocolVersion,
};
use tokio::sync::mpsc;

use crate::tool::ToolContext;

/// One progress report: the fraction done and a message.
pub(super) type Progress = (f64, Option<String>);

/// How many progress reports for calls not (yet) registered are kept.
const UNCLAIMED_PROGRESS: usize = 256;

/// Routes the server's progress notifications to the calls that asked for them.
#[derive(Clone, Default)]
pub(super) struct Relay {
    routes: Arc<Mutex<Routes>>,
}

#[derive(Default)]
struct Routes {
    calls: HashMap<ProgressToken, mpsc::UnboundedSender<Progress>>,
    /// Progress that arrived before its call registered (the request is on the wire before
    /// rmcp tells us its token), oldest first and bounded.
    unclaimed: VecDeque<(ProgressToken, Progress)>,
}

impl ClientHandler for Relay {
    fn get_info(&self) -> ClientConfig {
        // The version `initialize` asks for; 2026-07-28 is negotiated by `server/discover`.
        // The tasks extension: a call may come back as a task, which `task.rs` follows.
        ClientConfig::new(
            ClientCapabilities::builder().enable_tasks().build(),
            Implementation::new("tool-executor", env!("CARGO_PKG_VERSION")),
        )
        .with_protocol_version(ProtocolVersion::LATEST_WITH_INITIALIZE)
    }
}

impl Relay {
    pub(super) fn route(&self, params: &ProgressNotificationParam) {
        let fraction = match params.total {
            Some(total) if total > 0.0 => params.progress / total,
            _ => params.progress,
        };
        let progress = (fraction, params.message.clone());
        let mut routes = self.routes.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(tx) = routes.calls.get(&params.progress_token) {
            let _ = tx.send(progress);
        } else {
            if routes.unclaimed.len() == UNCLAIMED_PROGRESS {
                routes.unclaimed.pop_front();
            }
            routes
                .unclaimed
                .push_back((params.progress_token.clone(), progress));
        }
    }

    /// Routes `token`'s progress to a new channel, starting with what already arrived.
    pub(super) fn register(&self, token: ProgressToken) -> mpsc::UnboundedReceiver<Progress> {
        let (tx, rx) = mpsc::unbounded_channel();
        let mut routes = self.routes.lock().unwrap_or_else(PoisonError::into_inner);
        routes.unclaimed.retain(|(t, progress)| {
            let mine = *t == token;
            if mine {
                let _ = tx.send(progress.clone());
            }
            !mine
        });
        routes.calls.insert(token, tx);
        rx
    }

    pub(super) fn unregister(&self, token: &ProgressToken) {
        let mut routes = self.routes.lock().unwrap_or_else(PoisonError::into_inner);
        routes.calls.remove(token);
        routes.unclaimed.retain(|(t, _)| t != token);
    }
}

/// Removes a call's progress route when the call ends or is dropped.
pub(super) struct Unregister {
    pub(super) relay: Relay,
    pub(super) token: ProgressToken,
}

impl Drop for Unregister {
    fn drop(&mut self) {
        self.relay.unregister(&self.token);
    }
}

/// Awaits `call`, passing progress from the server to the tool's context meanwhile.
pub(super) async fn relay_progress<F, T>(
    call: F,
    mut progress: mpsc::UnboundedReceiver<Progress>,
    ctx: &ToolContext,
) -> T
where
    F: std::future::Future<Output = T>,
{
    let mut call = std::pin::pin!(call);
    loop {
        tokio::select! {
            result = &mut call => {
                // Progress read before the response is already queued: pass it on too.
                while let Ok((fraction, message)) = progress.try_recv() {
                    ctx.progress(fraction, message).await;
                }
                return result;
            }
            Some((fraction, message)) = progress.recv() => ctx.progress(fraction, message).await,
        }
    }
}

#[cfg(test)]
mod tests {
    use rmcp::model::NumberOrString;

    use super::*;

    fn report(token: &ProgressToken, progress: f64) -> ProgressNotificationParam {
        let mut param = ProgressNotificationParam::new(token.clone(), progress);
        param.total = Some(4.0);
        param
    }

    #[test]
    fn progress_that_beats_registration_is_delivered_in_order() {
        let relay = Relay::default();
        let token = ProgressToken(NumberOrString::Number(7));
        let other = ProgressToken(NumberOrString::Number(8));
        relay.route(&report(&token, 1.0));
        relay.route(&report(&other, 1.0));
        relay.route(&report(&token, 2.0));
        let mut rx = relay.register(token.clone());
        relay.route(&report(&token, 3.0));
        let got: Vec<f64> = std::iter::from_fn(|| rx.try_recv().ok().map(|p| p.0)).collect();
        assert_eq!(got, [0.25, 0.5, 0.75]);
        relay.unregister(&token);
        relay.unregister(&other);
        let routes = relay.routes.lock().unwrap();
        assert!(routes.calls.is_empty() && routes.unclaimed.is_empty());
    }

    #[test]
    fn unclaimed_progress_is_bounded() {
        let relay = Relay::default();
        for i in 0..1000 {
            relay.route(&report(&ProgressToken(NumberOrString::Number(i)), 1.0));
        }
        assert_eq!(
            relay.routes.lock().unwrap().unclaimed.len(),
            UNCLAIMED_PROGRESS
        );
    }
}
