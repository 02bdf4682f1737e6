//! One implementation's process: started from its argv (no shell), spoken
//! to one line at a time, never trusted to answer.
//!
//! Three threads per process keep the harness from ever blocking on it: a
//! writer (a full stdin pipe cannot hang the harness), a reader that turns
//! stdout into lines (so an answer can be waited for with a timeout), and a
//! collector that keeps the last lines of stderr for the report. A fourth
//! watches for the process's exit, so a crash is told as a crash even while
//! a process it started still holds its stdout. Each implementation runs in
//! a process group of its own, and the whole group is killed when it
//! crashes, hangs or breaks the protocol, and at the end: no process it
//! started outlives `check` (unless it left the group, e.g. by `setsid`).
//! The caller decides whether to start another.
//!
//! Nothing it writes is kept whole: a line longer than [`streams::LINE_MAX`] is
//! dropped as it is read, and of bytes that break the protocol only the
//! first [`KEPT_MAX`] are kept, for the report.
//!
//! Sending and receiving are two steps ([`Process::send`], then
//! [`Process::receive`]) so the caller can work between them while the
//! implementation does; the timeout still runs from the send, and a line
//! counts as on time by when the reader got it, not when it was looked at.
//!
//! The bytes kept of what went wrong are [`trouble`]'s; reading stdout into
//! lines and stderr into a tail is [`streams`]'s; the process group is
//! [`group`]'s. Whether a line is a right answer is not decided here: the
//! runner's `judge` does that.

mod group;
mod streams;
mod trouble;

use std::collections::VecDeque;
use std::io::Write as _;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::cli::conformance::protocol::{self, HelloReply, MessageKind};
use streams::{LINE_MAX, ReaderEvent, collect_stderr, read_lines};
pub use trouble::{KEPT_MAX, Offending, Trouble, kept};

/// How long after the process exited a line it wrote before is still
/// awaited: the reader only has to be scheduled, unless a process it
/// started holds stdout open.
const AFTER_EXIT: Duration = Duration::from_millis(250);
/// How long a dying process gets to finish writing stderr, and a process
/// that was told `bye` gets to exit before it is killed, at least.
const GRACE: Duration = Duration::from_secs(2);

/// How the harness talks to implementations.
#[derive(Clone, Debug)]
pub struct Settings {
    /// How long one answer (or the hello reply) may take.
    pub timeout: Duration,
    /// Check every message, both ways, against its schema.
    pub validate: bool,
}

/// A running implementation.
pub struct Process {
    child: Child,
    /// Whether [`ReaderEvent::Exited`] was seen.
    exited: bool,
    /// Whether the child's group was killed and the child reaped.
    reaped: bool,
    to: Option<Sender<Vec<u8>>>,
    /// Each line with the moment the reader got it.
    from: Receiver<(ReaderEvent, Instant)>,
    stderr: Arc<Mutex<VecDeque<String>>>,
    stderr_done: Receiver<()>,
}

/// One JSON message the implementation wrote: parsed, and as written.
pub struct Message {
    /// The parsed message.
    pub value: Value,
    /// Its bytes, without the `\n`.
    pub raw: Vec<u8>,
}

impl Process {
    /// Starts `argv` with piped stdio.
    pub fn start(argv: &[String]) -> Result<Process, String> {
        let (program, args) = argv.split_first().ok_or("the command is empty")?;
        let mut command = Command::new(program);
        command
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        group::own(&mut command);
        let mut child = command
            .spawn()
            .map_err(|e| format!("could not start \"{program}\": {e}"))?;
        group::enrol(&child);
        let (Some(stdin), Some(stdout), Some(stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            group::kill(&mut child);
            let _ = child.wait();
            return Err(format!("could not open the pipes of \"{program}\""));
        };
        let (to, to_rx) = mpsc::channel::<Vec<u8>>();
        std::thread::spawn(move || {
            let mut stdin = stdin;
            for message in to_rx {
                if stdin
                    .write_all(&message)
                    .and_then(|()| stdin.flush())
                    .is_err()
                {
                    break;
                }
            }
            // Dropping stdin closes the pipe: the implementation sees EOF.
        });
        let (from_tx, from) = mpsc::channel();
        let exit_tx = from_tx.clone();
        std::thread::spawn(move || read_lines(stdout, &from_tx));
        let pid = child.id();
        std::thread::spawn(move || {
            if group::exited(pid) {
                let _ = exit_tx.send((ReaderEvent::Exited, Instant::now()));
            }
        });
        let tail = Arc::new(Mutex::new(VecDeque::new()));
        let (done_tx, stderr_done) = mpsc::channel();
        let kept = Arc::clone(&tail);
        std::thread::spawn(move || {
            collect_stderr(stderr, &kept);
            let _ = done_tx.send(());
        });
        Ok(Process {
            child,
            exited: false,
            reaped: false,
            to: Some(to),
            from,
            stderr: tail,
            stderr_done,
        })
    }

    /// Says hello and reads the reply.
    pub fn hello(&mut self, settings: &Settings) -> Result<HelloReply, Trouble> {
        let hello = protocol::hello_message();
        if let Some(why) = own_trouble(&hello, MessageKind::Hello, settings) {
            return Err(self.refuse(why));
        }
        let sent = self.send(&hello)?;
        let reply = self.receive(sent, settings)?;
        if settings.validate
            && let Err(why) = MessageKind::HelloReply.validate(&reply.value)
        {
            return Err(self.broke(format!("its hello reply {why}"), &reply));
        }
        let mut hello = protocol::read_hello_reply(&reply.value)
            .map_err(|why| self.broke(format!("its hello reply is wrong: {why}"), &reply))?;
        // Every report names it by these: none is kept longer than a
        // report keeps anything the implementation wrote.
        let who = &mut hello.implementation;
        for text in [&mut who.name, &mut who.version, &mut who.language] {
            *text = kept(text);
        }
        who.homepage = who.homepage.as_deref().map(kept);
        Ok(hello)
    }

    /// The trouble for a message the harness found to break its own schema
    /// ([`own_trouble`]), sent instead of it: a bug here, not there.
    pub fn refuse(&mut self, why: String) -> Trouble {
        self.trouble(format!("the harness's own message {why}"), None)
    }

    /// Sends one message. Returns when it was sent, for
    /// [`Process::receive`].
    pub fn send(&mut self, message: &str) -> Result<Instant, Trouble> {
        let mut line = Vec::with_capacity(message.len() + 1);
        line.extend_from_slice(message.as_bytes());
        line.push(b'\n');
        let sent = Instant::now();
        if self.to.as_ref().is_none_or(|to| to.send(line).is_err()) {
            return Err(self.died("its stdin closed before the message was sent"));
        }
        Ok(sent)
    }

    /// Waits for the answer to the message sent at `sent`: one line, which
    /// must be JSON and must have arrived within the timeout of the send.
    /// A process that exits without answering is told as a crash at once,
    /// even while something it started holds its stdout.
    pub fn receive(&mut self, sent: Instant, settings: &Settings) -> Result<Message, Trouble> {
        // A deadline past what the clock can represent is no deadline.
        let deadline = sent.checked_add(settings.timeout);
        let late = || format!("no answer within {}", seconds(settings.timeout));
        // Once it exited (perhaps before this message was even sent), a
        // line it wrote before is awaited a little while.
        let mut after_exit = self.exited.then(|| Instant::now() + AFTER_EXIT);
        loop {
            let until = match (deadline, after_exit) {
                (Some(d), Some(e)) => Some(d.min(e)),
                (d, e) => d.or(e),
            };
            let received = match until {
                Some(until) => self
                    .from
                    .recv_timeout(until.saturating_duration_since(Instant::now())),
                None => self.from.recv().map_err(|_| RecvTimeoutError::Disconnected),
            };
            return match received {
                Ok((ReaderEvent::Exited, _)) => {
                    self.exited = true;
                    after_exit = Some(Instant::now() + AFTER_EXIT);
                    continue;
                }
                Ok((_, at)) if deadline.is_some_and(|deadline| at > deadline) => {
                    Err(self.trouble(late(), None))
                }
                Ok((ReaderEvent::Text(raw), _)) => match disclose_replay::json::parse_slice(&raw) {
                    Ok(value) => Ok(Message { value, raw }),
                    Err(e) => Err(self.trouble(
                        format!("it wrote a line that is not JSON ({e})"),
                        Some(Offending::of(&raw)),
                    )),
                },
                Ok((ReaderEvent::TooLong(start), _)) => Err(self.trouble(
                    format!("it wrote a line longer than {LINE_MAX} bytes"),
                    Some(start),
                )),
                Ok((ReaderEvent::Failed(why), _)) => Err(self.died(&format!("its stdout failed: {why}"))),
                Ok((ReaderEvent::End, _)) | Err(RecvTimeoutError::Disconnected) => {
                    Err(self.died("it closed stdout without answering"))
                }
                Err(RecvTimeoutError::Timeout) if self.exited && deadline.is_none_or(|d| Instant::now() < d) => {
                    Err(self.died(
                        "it exited without answering, while a process it started still held its stdout",
                    ))
                }
                Err(RecvTimeoutError::Timeout) => Err(self.trouble(late(), None)),
            };
        }
    }

    /// A message that is JSON but breaks the protocol: the process is
    /// killed, and the message kept as the offending bytes.
    pub fn broke(&mut self, what: String, message: &Message) -> Trouble {
        self.trouble(kept(&what), Some(Offending::of(&message.raw)))
    }

    /// The last lines of stderr so far, without waiting (the process is
    /// alive and well).
    pub fn stderr_now(&self) -> Vec<String> {
        self.stderr
            .lock()
            .map(|tail| tail.iter().cloned().collect())
            .unwrap_or_default()
    }

    /// Ends the conversation: `bye`, stdin closed, then the exit awaited
    /// for `timeout`. A process still running then is killed, and so is
    /// every process it started that is still in its group; what it did
    /// wrong is returned, for a warning.
    pub fn bye(mut self, settings: &Settings) -> Option<String> {
        if let Some(to) = self.to.take() {
            let _ = to.send(format!("{}\n", protocol::bye_message()).into_bytes());
        }
        let limit = settings.timeout.max(GRACE);
        let exited = self.exit_within(limit);
        let status = self.end();
        match status {
            Some(status) if exited && status.success() => None,
            Some(status) if exited => {
                Some(format!("it exited with {} after bye", describe(status)))
            }
            _ => Some(format!(
                "it was still running {} after bye, and was killed",
                seconds(limit)
            )),
        }
    }

    /// Kills the process (it is no longer trusted) and says what happened,
    /// with its stderr's last lines.
    fn trouble(&mut self, what: String, offending: Option<Offending>) -> Trouble {
        self.to = None;
        self.end();
        Trouble {
            what,
            offending,
            stderr: self.stderr_tail(),
        }
    }

    /// The process went away (or stopped talking): how it ended, when it
    /// did.
    fn died(&mut self, what: &str) -> Trouble {
        self.to = None;
        let exited = self.exit_within(GRACE);
        let status = self.end();
        let what = match status {
            Some(status) if exited => format!("{what}; it exited with {}", describe(status)),
            _ => what.to_string(),
        };
        Trouble {
            what,
            offending: None,
            stderr: self.stderr_tail(),
        }
    }

    /// Whether the process exits within `limit` (lines still coming are
    /// dropped: the conversation is over).
    fn exit_within(&mut self, limit: Duration) -> bool {
        let deadline = Instant::now().checked_add(limit);
        while !self.exited {
            let received = match deadline {
                Some(d) => self
                    .from
                    .recv_timeout(d.saturating_duration_since(Instant::now())),
                None => self.from.recv().map_err(|_| RecvTimeoutError::Disconnected),
            };
            match received {
                Ok((ReaderEvent::Exited, _)) => self.exited = true,
                Ok(_) => {}
                // Timed out, or the watcher could not wait.
                Err(_) => return false,
            }
        }
        true
    }

    /// Kills the process's group (the process, if it still runs, and every
    /// process it started there), then reaps the process: its status.
    fn end(&mut self) -> Option<ExitStatus> {
        if !self.reaped {
            group::kill(&mut self.child);
            self.reaped = true;
        }
        self.child.wait().ok()
    }

    /// The last lines of stderr, once the process has finished writing it
    /// (or after [`GRACE`], if something else still holds the pipe).
    fn stderr_tail(&self) -> Vec<String> {
        let _ = self.stderr_done.recv_timeout(GRACE);
        self.stderr
            .lock()
            .map(|tail| tail.iter().cloned().collect())
            .unwrap_or_default()
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        // Never leave a process behind, whatever path dropped it.
        self.end();
    }
}

/// `status 3`, or `signal 9` on Unix.
fn describe(status: ExitStatus) -> String {
    if let Some(code) = status.code() {
        return format!("status {code}");
    }
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt as _;
        if let Some(signal) = status.signal() {
            return format!("signal {signal}");
        }
    }
    status.to_string()
}

/// With `--validate-protocol`, why the harness's own `message` breaks the
/// schema of `kind`; `None` when it does not, or when not validating.
pub fn own_trouble(message: &str, kind: MessageKind, settings: &Settings) -> Option<String> {
    if !settings.validate {
        return None;
    }
    let parsed: Value = serde_json::from_str(message).unwrap_or(Value::Null);
    kind.validate(&parsed).err()
}

/// `10 s`, `0.5 s`.
pub fn seconds(duration: Duration) -> String {
    format!("{} s", duration.as_secs_f64())
}
