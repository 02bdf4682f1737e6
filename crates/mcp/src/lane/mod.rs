//! The lane: a call read, answered and written beside rmcp's service, not
//! through it, on the client's stdio (`client`) and on a stdio upstream's
//! (`upstream`).
//!
//! A call is most of what crosses the gateway, and rmcp's way with one
//! costs most of its hop (docs/performance-log.md): a typed read of every
//! line (an untagged union of every message, buffered and read again per
//! variant), a task and a sink per request, and a channel per answer. So
//! both stdio connections are [`Lines`], rmcp's transport with a [`Tap`]
//! that sees each line first: the client's plain `tools/call` and an
//! upstream's answer to a call the lane sent are the tap's; every other
//! line is read as rmcp's stdio reads it (`JsonRpcMessageCodec`, the same
//! 16 MiB bound, the same "Invalid request" for JSON that is no message)
//! and handed to rmcp. rmcp and the lane write through one writer, a whole
//! line at a time.

pub mod client;
pub mod upstream;

use std::marker::PhantomData;
use std::sync::Arc;

use rmcp::service::{RxJsonRpcMessage, ServiceRole, TxJsonRpcMessage};
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};

pub use client::Lane;

/// One side of a connection, as the lane writes it.
pub type Writer = Box<dyn AsyncWrite + Send + Unpin>;
/// The other side, as [`Lines`] reads it.
pub type Reader = Box<dyn AsyncRead + Send + Unpin>;
/// The writer rmcp and the lane share; `None` once rmcp has closed it.
pub type SharedWriter = Arc<tokio::sync::Mutex<Option<Writer>>>;

/// `writer`, to be shared.
pub fn shared(writer: Writer) -> SharedWriter {
    Arc::new(tokio::sync::Mutex::new(Some(writer)))
}

/// The longest line read, as rmcp's stdio reads (a longer one is
/// dropped and the connection stays open).
const MAX_LINE: usize = rmcp::transport::async_rw::DEFAULT_MAX_LINE_LENGTH;

/// What sees each line before rmcp.
pub trait Tap: Send + Sync + 'static {
    /// Takes `line` (without its newline) when it is the lane's; `false`
    /// leaves it to rmcp.
    fn take(&self, line: &[u8]) -> bool;

    /// The connection has ended: rmcp is told once this is done.
    fn end(&self) -> impl Future<Output = ()> + Send;
}

/// `message` as one line: its JSON and a newline.
pub fn line<M: serde::Serialize>(message: &M) -> std::io::Result<Vec<u8>> {
    let mut bytes = serde_json::to_vec(message).map_err(std::io::Error::other)?;
    bytes.push(b'\n');
    Ok(bytes)
}

/// Writes `message` and a newline, as one line, and flushes.
pub async fn write<M: serde::Serialize>(writer: &SharedWriter, message: &M) -> std::io::Result<()> {
    write_line(writer, line(message)?).await
}

/// Writes `line` whole, after the lines before it, and flushes.
pub async fn write_line(writer: &SharedWriter, line: Vec<u8>) -> std::io::Result<()> {
    let mut writer = writer.lock().await;
    let writer = writer
        .as_mut()
        .ok_or_else(|| std::io::Error::from(std::io::ErrorKind::BrokenPipe))?;
    writer.write_all(&line).await?;
    writer.flush().await
}

/// Writes `line` from code that cannot wait (a tap): at once when the
/// writer is free and takes it whole, as nearly every line is written;
/// otherwise on a task of its own, after the lines before it. `written`
/// is told how it went, once.
pub fn write_now(
    writer: &SharedWriter,
    line: Vec<u8>,
    written: impl FnOnce(std::io::Result<()>) + Send + 'static,
) {
    let writer = Arc::clone(writer);
    let mut write = Box::pin(async move { written(write_line(&writer, line).await) });
    // Polled once here: a free lock and a pipe with room finish it. What
    // it registered to be woken by is replaced when its task polls it.
    let mut context = std::task::Context::from_waker(std::task::Waker::noop());
    if write.as_mut().poll(&mut context).is_pending() {
        tokio::spawn(write);
    }
}

/// rmcp's transport over newline-delimited JSON, with a tap seeing each
/// line first.
pub struct Lines<R, T> {
    tap: T,
    writer: SharedWriter,
    reader: BufReader<Reader>,
    /// The line being read: kept across a cancelled `receive` (rmcp polls
    /// it in a `select!`), cleared once a whole line is used.
    line: Vec<u8>,
    /// Whether the rest of an over-long line is being skipped.
    skipping: bool,
    role: PhantomData<fn() -> R>,
}

enum Read {
    Line,
    TooLong,
    End,
}

impl<R: ServiceRole, T: Tap> Lines<R, T> {
    /// The transport reading `reader` and writing `writer`, `tap` first.
    pub fn new(tap: T, reader: Reader, writer: SharedWriter) -> Lines<R, T> {
        Lines {
            tap,
            writer,
            reader: BufReader::with_capacity(64 * 1024, reader),
            line: Vec::new(),
            skipping: false,
            role: PhantomData,
        }
    }

    /// Reads up to the next newline into `self.line`. Cancel-safe: what
    /// was read stays in `self.line`.
    async fn read_line(&mut self) -> Read {
        loop {
            let Ok(available) = self.reader.fill_buf().await else {
                return Read::End;
            };
            if available.is_empty() {
                return Read::End;
            }
            let newline = memchr::memchr(b'\n', available);
            let take = newline.map_or(available.len(), |at| at + 1);
            let over = self.skipping || self.line.len().saturating_add(take) > MAX_LINE;
            if over {
                self.line.clear();
            } else {
                self.line.extend_from_slice(&available[..take]);
            }
            self.reader.consume(take);
            match (newline, over) {
                (Some(_), false) => return Read::Line,
                (Some(_), true) => {
                    self.skipping = false;
                    return Read::TooLong;
                }
                (None, true) => self.skipping = true,
                (None, false) => {}
            }
        }
    }
}

/// A line the tap did not take, as rmcp's stdio reads it: a message; or
/// nothing, for a line that is not JSON or a notification rmcp ignores; or
/// nothing after answering "Invalid request" for JSON that is no message.
async fn parse<R: ServiceRole>(writer: &SharedWriter, line: &[u8]) -> Option<RxJsonRpcMessage<R>> {
    use rmcp::transport::async_rw::{JsonRpcMessageCodec, JsonRpcMessageCodecError};
    use tokio_util::codec::Decoder;
    let mut codec = JsonRpcMessageCodec::<RxJsonRpcMessage<R>>::new();
    let mut bytes = bytes::BytesMut::with_capacity(line.len() + 1);
    bytes.extend_from_slice(line);
    bytes.extend_from_slice(b"\n");
    match codec.decode(&mut bytes) {
        Ok(message) => message,
        Err(JsonRpcMessageCodecError::Serde(error))
            if matches!(
                error.classify(),
                serde_json::error::Category::Data | serde_json::error::Category::Io
            ) =>
        {
            let invalid = TxJsonRpcMessage::<R>::error(
                rmcp::ErrorData::invalid_request("Invalid request", None),
                None,
            );
            let _ = write(writer, &invalid).await;
            None
        }
        Err(_) => None,
    }
}

impl<R: ServiceRole, T: Tap> rmcp::transport::Transport<R> for Lines<R, T> {
    type Error = std::io::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<R>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        let writer = Arc::clone(&self.writer);
        async move { write(&writer, &item).await }
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<R>> {
        loop {
            match self.read_line().await {
                Read::Line => {}
                Read::TooLong => continue,
                Read::End => {
                    // A trailing line without its newline is no message.
                    self.tap.end().await;
                    return None;
                }
            }
            let line = std::mem::take(&mut self.line);
            let text = line.strip_suffix(b"\n").unwrap_or(&line);
            let text = text.strip_suffix(b"\r").unwrap_or(text);
            let message = if text.is_empty() || self.tap.take(text) {
                None
            } else {
                parse::<R>(&self.writer, text).await
            };
            self.line = line;
            self.line.clear();
            if message.is_some() {
                return message;
            }
        }
    }

    /// Drops the writer, as rmcp's stdio does: the other side reads the end.
    async fn close(&mut self) -> Result<(), Self::Error> {
        drop(self.writer.lock().await.take());
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;

    use rmcp::RoleServer;
    use rmcp::transport::Transport;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    use super::*;

    /// A tap that takes the lines holding `"lane"`, and counts its ends.
    #[derive(Default)]
    struct Taking {
        taken: Mutex<Vec<String>>,
        ended: Mutex<usize>,
    }

    impl Tap for Arc<Taking> {
        fn take(&self, line: &[u8]) -> bool {
            let line = String::from_utf8_lossy(line).into_owned();
            let ours = line.contains("\"lane\"");
            if ours {
                self.taken.lock().unwrap().push(line);
            }
            ours
        }

        async fn end(&self) {
            *self.ended.lock().unwrap() += 1;
        }
    }

    fn lines() -> (
        Lines<RoleServer, Arc<Taking>>,
        Arc<Taking>,
        tokio::io::DuplexStream,
    ) {
        let (ours, theirs) = tokio::io::duplex(1 << 16);
        let (reader, writer) = tokio::io::split(ours);
        let tap = Arc::new(Taking::default());
        let lines = Lines::new(Arc::clone(&tap), Box::new(reader), shared(Box::new(writer)));
        (lines, tap, theirs)
    }

    fn method(message: &RxJsonRpcMessage<RoleServer>) -> Value {
        serde_json::to_value(message).unwrap()["method"].clone()
    }

    use serde_json::Value;

    #[tokio::test(flavor = "current_thread")]
    async fn the_tap_sees_each_line_first_and_rmcp_reads_the_rest_as_its_stdio_does() {
        let (mut lines, tap, mut peer) = lines();
        let sent = concat!(
            "not json\n",
            "\n",
            "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n",
            "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"lane\"}\r\n",
            "{\"jsonrpc\":\"2.0\",\"id\":1}\n",
            "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}\r\n",
            "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\"}",
        );
        let writing = tokio::spawn(async move {
            peer.write_all(sent.as_bytes()).await.unwrap();
            peer.shutdown().await.unwrap();
            let mut answered = String::new();
            peer.read_to_string(&mut answered).await.unwrap();
            answered
        });
        let first = lines.receive().await.expect("the notification");
        assert_eq!(method(&first), "notifications/initialized");
        let second = lines.receive().await.expect("the ping");
        assert_eq!(method(&second), "ping");
        // The last line has no newline: it is no message, and the end is.
        assert!(lines.receive().await.is_none());
        assert_eq!(*tap.ended.lock().unwrap(), 1);
        assert_eq!(
            *tap.taken.lock().unwrap(),
            ["{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"lane\"}"]
        );
        lines.close().await.unwrap();
        drop(lines);
        // JSON that is no message is answered "Invalid request", as rmcp's
        // stdio answers it; text that is not JSON is not answered.
        let answered = writing.await.unwrap();
        let answers: Vec<Value> = answered
            .lines()
            .map(|line| serde_json::from_str(line).unwrap())
            .collect();
        assert_eq!(answers.len(), 1, "{answered}");
        assert_eq!(answers[0]["error"]["code"], -32600);
        assert_eq!(answers[0]["id"], Value::Null);
    }

    #[tokio::test(flavor = "current_thread")]
    async fn a_line_read_in_parts_across_cancelled_receives_is_one_message() {
        let (mut lines, _tap, mut peer) = lines();
        peer.write_all(b"{\"jsonrpc\":\"2.0\",\"id\":2,")
            .await
            .unwrap();
        let cut = tokio::time::timeout(std::time::Duration::from_millis(20), lines.receive());
        assert!(cut.await.is_err(), "half a line is no message yet");
        peer.write_all(b"\"method\":\"ping\"}\n").await.unwrap();
        let message = lines.receive().await.expect("the ping");
        assert_eq!(method(&message), "ping");
    }

    #[tokio::test(flavor = "current_thread")]
    async fn a_line_over_the_bound_is_dropped_and_the_next_one_read() {
        let (mut lines, tap, mut peer) = lines();
        let writing = tokio::spawn(async move {
            let long = format!("{{\"lane\":\"{}\"}}\n", "x".repeat(MAX_LINE));
            peer.write_all(long.as_bytes()).await.unwrap();
            peer.write_all(b"{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}\n")
                .await
                .unwrap();
            peer
        });
        let message = lines.receive().await.expect("the ping");
        assert_eq!(method(&message), "ping");
        assert!(tap.taken.lock().unwrap().is_empty());
        drop(writing.await.unwrap());
    }

    #[tokio::test(flavor = "current_thread")]
    async fn a_line_written_now_is_whole_and_after_the_lines_before_it() {
        let (ours, mut theirs) = tokio::io::duplex(1 << 16);
        let writer = shared(Box::new(ours));
        let (tell, mut told) = tokio::sync::mpsc::unbounded_channel();
        let told_of = |n: u8| {
            let tell = tell.clone();
            move |written: std::io::Result<()>| tell.send((n, written.is_ok())).unwrap()
        };

        // A free writer takes the line at once, before anything else runs.
        write_now(&writer, b"one\n".to_vec(), told_of(1));
        assert_eq!(told.try_recv().unwrap(), (1, true));

        // A writer in use (rmcp writing a line): the line waits its turn,
        // and a later one waits behind it.
        let held = writer.lock().await;
        write_now(&writer, b"two\n".to_vec(), told_of(2));
        write_now(&writer, b"three\n".to_vec(), told_of(3));
        assert!(told.try_recv().is_err());
        drop(held);
        assert_eq!(told.recv().await.unwrap(), (2, true));
        assert_eq!(told.recv().await.unwrap(), (3, true));
        let mut read = vec![0; 14];
        theirs.read_exact(&mut read).await.unwrap();
        assert_eq!(read, b"one\ntwo\nthree\n");

        // A closed writer: told it failed.
        writer.lock().await.take();
        write_now(&writer, b"four\n".to_vec(), told_of(4));
        assert_eq!(told.recv().await.unwrap(), (4, false));
    }
}
