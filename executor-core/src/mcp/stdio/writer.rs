//! The one ordered writer of a stdio connection: a task that owns the output stream and
//! writes whole lines in the order they were queued.
//!
//! Everything the connection writes goes through it: rmcp's replies and notifications and our
//! own refusals. Queuing is synchronous, so the order is the order of the calls, and a caller
//! that stops waiting (rmcp drops a pending `receive()`, which may be writing a refusal) never
//! leaves half a line on the wire: the task writes the line anyway.

use std::io;

use rmcp::model::ServerJsonRpcMessage;
use tokio::io::{AsyncWrite, AsyncWriteExt};
use tokio::sync::{mpsc, oneshot};

/// What the writer task is asked to do.
enum Job {
    /// Write one line (newline included), then say how it went.
    Line(Vec<u8>, oneshot::Sender<io::Result<()>>),
    /// Shut the stream down and stop.
    Close(oneshot::Sender<io::Result<()>>),
}

/// A handle on the writer task; clones share the task and its order.
#[derive(Clone)]
pub(super) struct Writer {
    jobs: mpsc::UnboundedSender<Job>,
}

impl Writer {
    /// Starts the writer task on `write`. It ends after [`close`](Self::close), after a write
    /// error, or once every handle is gone and the queue is written.
    pub(super) fn spawn<W>(write: W) -> Self
    where
        W: AsyncWrite + Unpin + Send + 'static,
    {
        let (jobs, queue) = mpsc::unbounded_channel();
        tokio::spawn(write_queue(write, queue));
        Self { jobs }
    }

    /// Queues `message` as one line now; the future says when it was written and flushed.
    /// Dropping the future does not take the line back.
    pub(super) fn line(
        &self,
        message: &ServerJsonRpcMessage,
    ) -> impl Future<Output = io::Result<()>> + Send + 'static + use<> {
        let queued = serde_json::to_vec(message)
            .map_err(io::Error::other)
            .and_then(|mut bytes| {
                bytes.push(b'\n');
                self.queue(|done| Job::Line(bytes, done))
            });
        async move { finished(queued?.await) }
    }

    /// Flushes what is queued, then shuts the stream down.
    pub(super) async fn close(&self) -> io::Result<()> {
        finished(self.queue(Job::Close)?.await)
    }

    fn queue(
        &self,
        job: impl FnOnce(oneshot::Sender<io::Result<()>>) -> Job,
    ) -> io::Result<oneshot::Receiver<io::Result<()>>> {
        let (done, wait) = oneshot::channel();
        self.jobs.send(job(done)).map_err(|_| closed())?;
        Ok(wait)
    }
}

fn closed() -> io::Error {
    io::Error::new(io::ErrorKind::BrokenPipe, "the stdio writer has stopped")
}

/// A job's answer; a job the task never reached (it stopped on an earlier error) is a closed
/// stream.
fn finished(answer: Result<io::Result<()>, oneshot::error::RecvError>) -> io::Result<()> {
    answer.unwrap_or_else(|_| Err(closed()))
}

/// The writer task. Lines queued together are written back to back and flushed once, and
/// each is acknowledged after that flush.
async fn write_queue<W>(mut write: W, mut queue: mpsc::UnboundedReceiver<Job>)
where
    W: AsyncWrite + Unpin,
{
    let mut written = Vec::new();
    while let Some(job) = queue.recv().await {
        let outcome = match job {
            Job::Line(bytes, done) => {
                written.push(done);
                match write.write_all(&bytes).await {
                    Ok(()) if !queue.is_empty() => continue,
                    Ok(()) => write.flush().await,
                    Err(e) => Err(e),
                }
            }
            Job::Close(done) => {
                written.push(done);
                let outcome = write.shutdown().await;
                answer(&mut written, &outcome);
                return;
            }
        };
        answer(&mut written, &outcome);
        if outcome.is_err() {
            return;
        }
    }
}

/// Tells everyone waiting how the last flush went.
fn answer(waiting: &mut Vec<oneshot::Sender<io::Result<()>>>, outcome: &io::Result<()>) {
    for done in waiting.drain(..) {
        let copy = match outcome {
            Ok(()) => Ok(()),
            Err(e) => Err(io::Error::new(e.kind(), e.to_string())),
        };
        // A caller that stopped waiting does not need the answer.
        let _ = done.send(copy);
    }
}
