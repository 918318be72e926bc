//! The one ordered writer of a stdio connection: a task that owns the output stream and
//! writes whole lines in the order they were queued.
//!
//! Everything the connection writes goes through it: rmcp's replies and notifications and our
//! own refusals. Queuing is synchronous, so the order is the order of the calls, and a caller
//! that stops waiting (rmcp drops a pending `receive()`, which may be writing a refusal) never
//! leaves half a line on the wire: the task writes the line anyway.
//!
//! The queue is bounded in bytes, though not by refusing lines (rmcp's replies must all be
//! written, in order): the writer counts the bytes queued and not yet written, and the reader
//! waits for [`room`](Writer::room) before it reads the next request. A client that stops
//! reading stdout therefore stops being read: its writes block on the full pipe, and the
//! server holds at most the bound plus the answers to requests already taken.

use std::io;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use rmcp::model::ServerJsonRpcMessage;
use tokio::io::{AsyncWrite, AsyncWriteExt};
use tokio::sync::{Notify, mpsc, oneshot};

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
    pending: Arc<Pending>,
}

/// The bytes queued and not yet written, against their bound.
struct Pending {
    bytes: AtomicUsize,
    max: usize,
    /// Set when the writer task ends: nothing will be written any more.
    stopped: AtomicBool,
    /// Woken whenever bytes are written, and when the writer stops.
    written: Notify,
}

impl Pending {
    fn sub(&self, bytes: usize) {
        self.bytes.fetch_sub(bytes, Ordering::AcqRel);
        self.written.notify_waiters();
    }
}

impl Writer {
    /// Starts the writer task on `write`, with room for `max_pending` bytes queued and not
    /// yet written (see [`room`](Self::room)). It ends after [`close`](Self::close), after a
    /// write error, or once every handle is gone and the queue is written.
    pub(super) fn spawn<W>(write: W, max_pending: usize) -> Self
    where
        W: AsyncWrite + Unpin + Send + 'static,
    {
        let (jobs, queue) = mpsc::unbounded_channel();
        let pending = Arc::new(Pending {
            bytes: AtomicUsize::new(0),
            max: max_pending,
            stopped: AtomicBool::new(false),
            written: Notify::new(),
        });
        tokio::spawn(write_queue(write, queue, Arc::clone(&pending)));
        Self { jobs, pending }
    }

    /// Resolves once fewer than the bound's bytes wait to be written (at once when the writer
    /// has stopped: the next write reports that). The reader awaits it before each request, so
    /// a client that does not read its answers is not read either.
    pub(super) async fn room(&self) {
        loop {
            let written = self.pending.written.notified();
            if self.pending.bytes.load(Ordering::Acquire) < self.pending.max
                || self.pending.stopped.load(Ordering::Acquire)
            {
                return;
            }
            written.await;
        }
    }

    /// Queues `message` as one line now; the future says when it was written and flushed.
    /// Dropping the future does not take the line back.
    pub(super) fn line(
        &self,
        message: &ServerJsonRpcMessage,
    ) -> impl Future<Output = io::Result<()>> + Send + 'static + use<> {
        self.serialized(serde_json::to_vec(message))
    }

    /// [`line`](Self::line) for a message already serialized.
    pub(super) fn serialized(
        &self,
        message: serde_json::Result<Vec<u8>>,
    ) -> impl Future<Output = io::Result<()>> + Send + 'static + use<> {
        let queued = message.map_err(io::Error::other).and_then(|mut bytes| {
            bytes.push(b'\n');
            let len = bytes.len();
            self.pending.bytes.fetch_add(len, Ordering::AcqRel);
            self.queue(|done| Job::Line(bytes, done)).inspect_err(|_| {
                self.pending.sub(len);
            })
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
async fn write_queue<W>(
    mut write: W,
    mut queue: mpsc::UnboundedReceiver<Job>,
    pending: Arc<Pending>,
) where
    W: AsyncWrite + Unpin,
{
    // Whatever ends this task, the reader must not wait for room that will never come.
    let _wake = WakeOnStop(Arc::clone(&pending));
    let mut written = Vec::new();
    while let Some(job) = queue.recv().await {
        let outcome = match job {
            Job::Line(bytes, done) => {
                written.push(done);
                let outcome = write.write_all(&bytes).await;
                // The line's memory goes here, with the count.
                let len = bytes.len();
                drop(bytes);
                pending.sub(len);
                match outcome {
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

/// Marks the writer stopped and wakes the reader when the writer task ends.
struct WakeOnStop(Arc<Pending>);

impl Drop for WakeOnStop {
    fn drop(&mut self) {
        self.0.stopped.store(true, Ordering::Release);
        self.0.written.notify_waiters();
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
