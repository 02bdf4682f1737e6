//! One implementation's process: started from its argv (no shell), spoken
//! to one line at a time, never trusted to answer.
//!
//! The caller's thread talks to it itself, with `poll(2)` ([`ready`]; Unix
//! only, and elsewhere [`Process::start`] refuses with [`NEEDS_UNIX`]): a message
//! is written straight into its stdin, which is non-blocking, and what the
//! pipe cannot take yet is written while the answer is awaited, so an
//! implementation that stops reading cannot block the harness and one
//! that writes before it has read everything cannot deadlock it. Its
//! stdout is read, and cut into lines, only while an answer is awaited,
//! with the timeout as the poll's. Two threads per process are never
//! waited on for an answer: one keeps the last lines of stderr for the
//! report, and one waits for the process's exit and says so on a pipe the
//! poll watches, so a crash is told as a crash even while a process it
//! started still holds its stdout. Each implementation runs in a process
//! group of its own, and the whole group is killed when it crashes, hangs
//! or breaks the protocol, and at the end: no process it started outlives
//! `check` (unless it left the group, e.g. by `setsid`). The caller
//! decides whether to start another.
//!
//! Nothing it writes is kept whole: a line longer than [`streams::LINE_MAX`] is
//! dropped as it is read, and of bytes that break the protocol only the
//! first [`KEPT_MAX`] are kept, for the report.
//!
//! Sending and receiving are two steps ([`Process::send`], then
//! [`Process::receive`]) so the caller can work between them while the
//! implementation does. The timeout runs from the send; a line already
//! there when the caller comes to receive is on time, whatever the
//! caller's own work between the two took (docs/decisions.md).
//!
//! The bytes kept of what went wrong are [`trouble`]'s; cutting stdout into
//! lines and keeping stderr's tail is [`streams`]'s; the process group is
//! [`group`]'s; waiting on the pipes is [`ready`]'s. Whether a line is a
//! right answer is not decided here: the
//! runner's `judge` does that.

mod group;
mod ready;
mod streams;
mod trouble;

use std::collections::VecDeque;
use std::io::{ErrorKind, PipeReader, Read as _, Write as _};
use std::process::{Child, ChildStdin, ChildStdout, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::cli::conformance::protocol::{self, HelloReply, MessageKind};
use ready::Event;
use streams::{LINE_MAX, StdoutLine, StdoutLines, collect_stderr};
pub use trouble::{KEPT_MAX, Offending, Trouble, kept};

/// How long after the process exited a line it wrote before is still
/// awaited: the reader only has to be scheduled, unless a process it
/// started holds stdout open.
const AFTER_EXIT: Duration = Duration::from_millis(250);
/// How long a dying process gets to finish writing stderr, and a process
/// that was told `bye` gets to exit before it is killed, at least.
const GRACE: Duration = Duration::from_secs(2);
/// stdout is read this many bytes at a time (a Linux pipe's whole buffer).
const CHUNK: usize = 64 * 1024;
/// A send buffer larger than this is not kept for the next message.
const UNSENT_KEPT: usize = 1024 * 1024;

/// Why `check --impl` does not run on this platform, where it does not:
/// an implementation's process group and `poll(2)` on its pipes are Unix's
/// (docs/decisions.md, "The gate builds for Windows; `check --impl` says
/// it needs Unix").
pub const NEEDS_UNIX: &str = "check --impl needs Unix: it runs each implementation in a process group of its own, so that every process it starts is killed with it, and waits on its pipes with poll(2); this Windows build has neither. Run `check --impl` on Linux or macOS (on Windows, under WSL); every other command works here";

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
    /// Whether its exit was seen.
    exited: bool,
    /// Whether the child's group was killed and the child reaped.
    reaped: bool,
    /// Its stdin, non-blocking; `None` once closed (by the harness, or
    /// because it stopped reading and a write failed).
    stdin: Option<ChildStdin>,
    /// What was sent, from `written` on not yet taken by the pipe.
    unsent: Vec<u8>,
    written: usize,
    /// stdin is closed once `unsent` is written (after `bye`).
    closing: bool,
    stdout: ChildStdout,
    lines: StdoutLines,
    /// What one read of stdout lands in.
    chunk: Box<[u8]>,
    /// Readable once the process has exited; `None` once that was seen,
    /// or the watcher could not wait.
    exit: Option<PipeReader>,
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
    /// Starts `argv` with piped stdio (on Unix: elsewhere it says
    /// [`NEEDS_UNIX`]).
    pub fn start(argv: &[String]) -> Result<Process, String> {
        if cfg!(not(unix)) {
            return Err(NEEDS_UNIX.to_string());
        }
        let (program, args) = argv.split_first().ok_or("the command is empty")?;
        // Written by the exit watcher; like every pipe std makes, closed on
        // exec, so the implementation does not hold it.
        let (exit, mut exit_tx) =
            std::io::pipe().map_err(|e| format!("could not start \"{program}\": {e}"))?;
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
        let pipes = match (child.stdin.take(), child.stdout.take(), child.stderr.take()) {
            (Some(stdin), Some(stdout), Some(stderr)) => ready::nonblocking(&stdin)
                .map(|()| (stdin, stdout, stderr))
                .ok(),
            _ => None,
        };
        let Some((stdin, stdout, stderr)) = pipes else {
            group::kill(&mut child);
            let _ = child.wait();
            return Err(format!("could not open the pipes of \"{program}\""));
        };
        let pid = child.id();
        std::thread::spawn(move || {
            if group::exited(pid) {
                let _ = exit_tx.write_all(b"x");
            }
            // Dropped without a byte: it could not wait.
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
            stdin: Some(stdin),
            unsent: Vec::new(),
            written: 0,
            closing: false,
            stdout,
            lines: StdoutLines::new(LINE_MAX),
            chunk: vec![0; CHUNK].into_boxed_slice(),
            exit: Some(exit),
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

    /// Sends one message: as much of it as the pipe takes now, the rest
    /// while the answer is awaited. Returns when it was sent, for
    /// [`Process::receive`].
    pub fn send(&mut self, message: &str) -> Result<Instant, Trouble> {
        if self.stdin.is_none() {
            return Err(self.died("its stdin closed before the message was sent"));
        }
        self.queue(message);
        let sent = Instant::now();
        self.write_some();
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
        // The first look does not wait: what it finds was there when the
        // harness came for it. Only a line read after a wait is timed.
        let mut looked = false;
        let mut waited = false;
        loop {
            if let Some(line) = self.lines.next() {
                if waited && deadline.is_some_and(|deadline| Instant::now() > deadline) {
                    return Err(self.trouble(late(), None));
                }
                return match line {
                    StdoutLine::Text(raw) => match disclose_replay::json::parse_slice(&raw) {
                        Ok(value) => Ok(Message { value, raw }),
                        Err(e) => Err(self.trouble(
                            format!("it wrote a line that is not JSON ({e})"),
                            Some(Offending::of(&raw)),
                        )),
                    },
                    StdoutLine::TooLong(start) => Err(self.trouble(
                        format!("it wrote a line longer than {LINE_MAX} bytes"),
                        Some(start),
                    )),
                    StdoutLine::Failed(why) => Err(self.died(&format!("its stdout failed: {why}"))),
                    StdoutLine::End => Err(self.died("it closed stdout without answering")),
                };
            }
            let until = match (deadline, after_exit) {
                (Some(d), Some(e)) => Some(d.min(e)),
                (d, e) => d.or(e),
            };
            let timeout = if looked {
                until.map(|until| until.saturating_duration_since(Instant::now()))
            } else {
                Some(Duration::ZERO)
            };
            let was_exited = self.exited;
            let woke = self.wait(timeout);
            waited = looked;
            if !woke && looked {
                return Err(
                    if self.exited && deadline.is_none_or(|d| Instant::now() < d) {
                        self.died(
                        "it exited without answering, while a process it started still held its stdout",
                    )
                    } else {
                        self.trouble(late(), None)
                    },
                );
            }
            looked = true;
            if self.exited && !was_exited {
                after_exit = Some(Instant::now() + AFTER_EXIT);
            }
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
        if self.stdin.is_some() {
            self.queue(&protocol::bye_message());
            self.closing = true;
            self.write_some();
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
        self.stdin = None;
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
        self.stdin = None;
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
            while self.lines.next().is_some() {}
            let timeout = deadline.map(|d| d.saturating_duration_since(Instant::now()));
            let woke = self.wait(timeout);
            if !self.exited && (!woke || deadline.is_some_and(|d| Instant::now() >= d)) {
                // Timed out, or the watcher could not wait.
                return false;
            }
        }
        true
    }

    /// `message` and its newline after whatever is still unsent.
    fn queue(&mut self, message: &str) {
        self.unsent.drain(..self.written);
        self.written = 0;
        self.unsent.extend_from_slice(message.as_bytes());
        self.unsent.push(b'\n');
    }

    /// Writes what stdin takes now, without blocking. A write that fails
    /// (it closed stdin) closes it here too: the rest is never sent, and
    /// the next send says so.
    fn write_some(&mut self) {
        let Some(stdin) = self.stdin.as_mut() else {
            return;
        };
        while self.written < self.unsent.len() {
            match stdin.write(&self.unsent[self.written..]) {
                Ok(0) => break,
                Ok(n) => self.written += n,
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(e) if e.kind() == ErrorKind::WouldBlock => return,
                Err(_) => break,
            }
        }
        if self.written < self.unsent.len() || self.closing {
            // Dropping stdin closes the pipe: the implementation sees EOF.
            self.stdin = None;
        }
        self.written = 0;
        if self.unsent.capacity() > UNSENT_KEPT {
            self.unsent = Vec::new();
        } else {
            self.unsent.clear();
        }
    }

    /// Waits at most `timeout` (`None`: without a limit) for one of: bytes
    /// on stdout while a line is wanted (read and cut into lines), the
    /// exit, room in stdin for what is unsent (written). False when none
    /// came in time, or there is nothing to wait for.
    fn wait(&mut self, timeout: Option<Duration>) -> bool {
        let reading = self.lines.wants_more();
        let writing = self.written < self.unsent.len() && self.stdin.is_some();
        if !reading && self.exit.is_none() && !writing {
            return false;
        }
        let found = ready::wait(
            reading.then_some(&self.stdout),
            self.exit.as_ref(),
            self.stdin.as_ref().filter(|_| writing),
            timeout,
        );
        let [stdout, exit, stdin] = match found {
            Ok(None) => return false,
            Ok(Some(events)) => events,
            Err(e) if e.kind() == ErrorKind::Interrupted => return true,
            Err(e) => {
                // Nothing can be waited on: stop watching, and say why.
                self.lines.fail(format!("poll: {e}"));
                self.exit = None;
                self.stdin = None;
                return true;
            }
        };
        if stdout != Event::Quiet {
            match self.stdout.read(&mut self.chunk) {
                Ok(0) => self.lines.close(),
                Ok(n) => self.lines.take(&self.chunk[..n]),
                Err(e) if matches!(e.kind(), ErrorKind::Interrupted | ErrorKind::WouldBlock) => {}
                Err(e) => self.lines.fail(e.to_string()),
            }
        }
        if exit != Event::Quiet {
            // A byte: it exited; a hang-up alone: the watcher gave up.
            self.exited = exit == Event::Ready;
            self.exit = None;
        }
        if stdin != Event::Quiet {
            self.write_some();
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
