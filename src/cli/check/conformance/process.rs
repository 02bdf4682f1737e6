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
//! Nothing it writes is kept whole: a line longer than [`LINE_MAX`] is
//! dropped as it is read, and of bytes that break the protocol only the
//! first [`KEPT_MAX`] are kept, for the report.
//!
//! Sending and receiving are two steps ([`Process::send`], then
//! [`Process::receive`]) so the caller can work between them while the
//! implementation does; the timeout still runs from the send, and a line
//! counts as on time by when the reader got it, not when it was looked at.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write as _};
use std::process::{Child, ChildStderr, ChildStdout, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::cli::protocol::{self, HelloReply, Kind};

/// The last this many lines of stderr are shown with a problem.
pub const STDERR_TAIL: usize = 20;
/// Longer stderr lines are cut to this many bytes.
const STDERR_LINE_MAX: usize = 1000;
/// A stdout line longer than this is a protocol violation, not an answer.
pub const LINE_MAX: usize = 256 * 1024 * 1024;
/// Of anything an implementation wrote that a report shows (bytes that
/// break the protocol, a reason, a case id, a diff), at most this many
/// bytes are kept, in memory and in every report (docs/decisions.md).
pub const KEPT_MAX: usize = 8 * 1024;
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

/// Something that went wrong in the conversation: the case it happened on
/// is errored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trouble {
    /// What went wrong, in a sentence.
    pub what: String,
    /// The bytes the implementation wrote that broke the protocol, if any.
    pub offending: Option<Offending>,
    /// The last lines of its stderr.
    pub stderr: Vec<String>,
}

/// Bytes that broke the protocol: the first [`KEPT_MAX`] of them, and how
/// many there were.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Offending {
    /// The first bytes, at most [`KEPT_MAX`].
    pub head: Vec<u8>,
    /// How many bytes there were in all.
    pub len: usize,
}

impl Offending {
    /// The first [`KEPT_MAX`] of `bytes`, copied.
    pub fn of(bytes: &[u8]) -> Offending {
        Offending {
            head: bytes[..bytes.len().min(KEPT_MAX)].to_vec(),
            len: bytes.len(),
        }
    }
}

/// `text`, cut to at most [`KEPT_MAX`] bytes at a char boundary, saying
/// how many were left out.
pub fn kept(text: &str) -> String {
    if text.len() <= KEPT_MAX {
        return text.to_string();
    }
    let mut end = KEPT_MAX;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}… ({} more bytes)", &text[..end], text.len() - end)
}

/// What the reader and the exit watcher tell [`Process::receive`].
enum Line {
    /// A line, without its `\n`.
    Text(Vec<u8>),
    /// A line longer than [`LINE_MAX`]: its first bytes.
    TooLong(Offending),
    /// stdout closed.
    End,
    /// stdout could not be read.
    Failed(String),
    /// The process exited (it is not reaped yet, so its group can still
    /// be killed safely).
    Exited,
}

/// A running implementation.
pub struct Process {
    child: Child,
    /// Whether [`Line::Exited`] was seen.
    exited: bool,
    /// Whether the child's group was killed and the child reaped.
    reaped: bool,
    to: Option<Sender<Vec<u8>>>,
    /// Each line with the moment the reader got it.
    from: Receiver<(Line, Instant)>,
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
                let _ = exit_tx.send((Line::Exited, Instant::now()));
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
        let hello = protocol::hello();
        if let Some(why) = own_trouble(&hello, Kind::Hello, settings) {
            return Err(self.refuse(why));
        }
        let sent = self.send(&hello)?;
        let reply = self.receive(sent, settings)?;
        if settings.validate
            && let Err(why) = Kind::HelloReply.validate(&reply.value)
        {
            return Err(self.broke(format!("its hello reply {why}"), &reply));
        }
        let mut hello = protocol::hello_reply(&reply.value)
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
                Ok((Line::Exited, _)) => {
                    self.exited = true;
                    after_exit = Some(Instant::now() + AFTER_EXIT);
                    continue;
                }
                Ok((_, at)) if deadline.is_some_and(|deadline| at > deadline) => {
                    Err(self.trouble(late(), None))
                }
                Ok((Line::Text(raw), _)) => match disclose_replay::json::parse_slice(&raw) {
                    Ok(value) => Ok(Message { value, raw }),
                    Err(e) => Err(self.trouble(
                        format!("it wrote a line that is not JSON ({e})"),
                        Some(Offending::of(&raw)),
                    )),
                },
                Ok((Line::TooLong(start), _)) => Err(self.trouble(
                    format!("it wrote a line longer than {LINE_MAX} bytes"),
                    Some(start),
                )),
                Ok((Line::Failed(why), _)) => Err(self.died(&format!("its stdout failed: {why}"))),
                Ok((Line::End, _)) | Err(RecvTimeoutError::Disconnected) => {
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
            let _ = to.send(format!("{}\n", protocol::bye()).into_bytes());
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
                Ok((Line::Exited, _)) => self.exited = true,
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
pub fn own_trouble(message: &str, kind: Kind, settings: &Settings) -> Option<String> {
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

fn read_lines(stdout: ChildStdout, lines: &Sender<(Line, Instant)>) {
    let mut reader = BufReader::new(stdout);
    loop {
        let line = match next_line(&mut reader, LINE_MAX) {
            Ok(line) => line,
            Err(e) => Line::Failed(e.to_string()),
        };
        let last = matches!(line, Line::End | Line::TooLong(_) | Line::Failed(_));
        if lines.send((line, Instant::now())).is_err() || last {
            return;
        }
    }
}

/// The next line of `reader`, without its `\n` (the last one may lack
/// it); [`Line::TooLong`] as soon as it holds more than `max` bytes, so it
/// never takes more than `max` bytes of memory (a doubling `Vec` would
/// take twice that for the byte past the limit).
fn next_line(reader: &mut impl BufRead, max: usize) -> std::io::Result<Line> {
    let mut line = Vec::new();
    loop {
        let buf = reader.fill_buf()?;
        if buf.is_empty() {
            return Ok(if line.is_empty() {
                Line::End
            } else {
                Line::Text(line)
            });
        }
        let (take, ended) = match memchr::memchr(b'\n', buf) {
            Some(at) => (at, true),
            None => (buf.len(), false),
        };
        if line.len() + take > max {
            // Only the first bytes are kept, and the count read so far.
            let mut start = Offending::of(&line);
            let more = KEPT_MAX.saturating_sub(start.head.len()).min(take);
            start.head.extend_from_slice(&buf[..more]);
            start.len += take;
            return Ok(Line::TooLong(start));
        }
        line.extend_from_slice(&buf[..take]);
        reader.consume(take + usize::from(ended));
        if ended {
            return Ok(Line::Text(line));
        }
    }
}

fn collect_stderr(stderr: ChildStderr, tail: &Mutex<VecDeque<String>>) {
    let mut reader = BufReader::new(stderr);
    let mut line = Vec::new();
    loop {
        line.clear();
        let limit = u64::try_from(STDERR_LINE_MAX).unwrap_or(u64::MAX);
        match (&mut reader).take(limit).read_until(b'\n', &mut line) {
            Ok(0) | Err(_) => return,
            Ok(_) => {}
        }
        let ended = line.last() == Some(&b'\n');
        if ended {
            line.pop();
        }
        let text = String::from_utf8_lossy(&line).into_owned();
        if let Ok(mut tail) = tail.lock() {
            if tail.len() == STDERR_TAIL {
                tail.pop_front();
            }
            tail.push_back(if ended { text } else { format!("{text}…") });
        }
        if !ended && line.len() >= STDERR_LINE_MAX && skip_line(&mut reader).is_err() {
            return;
        }
    }
}

/// Skips to just past the next `\n` without keeping what it skips.
fn skip_line(reader: &mut impl std::io::BufRead) -> std::io::Result<()> {
    loop {
        let buf = reader.fill_buf()?;
        if buf.is_empty() {
            return Ok(());
        }
        if let Some(at) = buf.iter().position(|b| *b == b'\n') {
            reader.consume(at + 1);
            return Ok(());
        }
        let n = buf.len();
        reader.consume(n);
    }
}

/// The process group an implementation runs in (Unix): started as the
/// leader of a group of its own, so that the group — the implementation and
/// everything it started that did not leave it — can be killed at once.
/// The group is killed only while its leader is not yet reaped (alive, or a
/// zombie), so its id cannot have been taken by another process.
#[cfg(unix)]
mod group {
    use std::os::unix::process::CommandExt as _;
    use std::process::{Child, Command};
    use std::sync::Once;
    use std::sync::atomic::{AtomicI32, Ordering};

    /// Makes the command's process the leader of a new group.
    pub fn own(command: &mut Command) {
        command.process_group(0);
    }

    /// The groups alive now, for [`on_signal`]: 0 is a free slot. More
    /// implementations than slots at once are still killed as usual, only
    /// not on a signal.
    static LIVE: [AtomicI32; 256] = [const { AtomicI32::new(0) }; 256];

    /// Notes the child's group as alive, so that a SIGINT, SIGTERM or
    /// SIGHUP to `check` (a Ctrl-C: the groups are not in the terminal's
    /// foreground group) kills it too before `check` dies.
    pub fn enrol(child: &Child) {
        static HANDLER: Once = Once::new();
        HANDLER.call_once(|| {
            for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
                // SAFETY: `on_signal` only makes async-signal-safe calls
                // (kill, signal, raise) and reads atomics.
                unsafe {
                    libc::signal(signal, on_signal as *const () as libc::sighandler_t);
                }
            }
        });
        if let Ok(pid) = i32::try_from(child.id()) {
            // The first free slot takes it; with none free, none does.
            let _ = LIVE.iter().any(|slot| {
                slot.compare_exchange(0, pid, Ordering::SeqCst, Ordering::SeqCst)
                    .is_ok()
            });
        }
    }

    /// Kills every live group, then dies of the signal as `check` would
    /// have.
    extern "C" fn on_signal(signal: libc::c_int) {
        for slot in &LIVE {
            let group = slot.load(Ordering::SeqCst);
            if group > 0 {
                // SAFETY: async-signal-safe; the group's leader is not
                // reaped while its slot holds it.
                unsafe {
                    libc::kill(-group, libc::SIGKILL);
                }
            }
        }
        // SAFETY: both are async-signal-safe; the default action ends us.
        unsafe {
            libc::signal(signal, libc::SIG_DFL);
            libc::raise(signal);
        }
    }

    /// SIGKILL to the child's whole group (the child is not reaped yet),
    /// and its slot freed before it is reaped.
    pub fn kill(child: &mut Child) {
        if let Ok(pid) = libc::pid_t::try_from(child.id()) {
            // SAFETY: kill(2) takes plain integers and touches no memory of
            // ours; the group id is the child's pid, which is not reused
            // while the child is unreaped.
            unsafe {
                libc::kill(-pid, libc::SIGKILL);
            }
            for slot in &LIVE {
                let _ = slot.compare_exchange(pid, 0, Ordering::SeqCst, Ordering::SeqCst);
            }
        }
        let _ = child.kill();
    }

    /// Blocks until process `pid` (a child of ours) has exited, without
    /// reaping it; `false` when it cannot wait (the child was reaped).
    pub fn exited(pid: u32) -> bool {
        let pid = libc::id_t::from(pid);
        loop {
            // SAFETY: waitid(2) writes one siginfo_t, which is ours and
            // zeroed; WNOWAIT leaves the child to be reaped by `Child`.
            let done = unsafe {
                let mut info: libc::siginfo_t = std::mem::zeroed();
                libc::waitid(
                    libc::P_PID,
                    pid,
                    &raw mut info,
                    libc::WEXITED | libc::WNOWAIT,
                )
            };
            if done == 0 {
                return true;
            }
            if std::io::Error::last_os_error().kind() != std::io::ErrorKind::Interrupted {
                return false;
            }
        }
    }
}

/// Elsewhere only the process itself is killed, and its exit is not
/// watched (a crash is seen when stdout closes).
#[cfg(not(unix))]
mod group {
    use std::process::{Child, Command};

    pub fn own(_: &mut Command) {}

    pub fn enrol(_: &Child) {}

    pub fn kill(child: &mut Child) {
        let _ = child.kill();
    }

    pub fn exited(_: u32) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &[u8], max: usize) -> Vec<String> {
        let mut reader = std::io::BufReader::with_capacity(3, text);
        let mut out = Vec::new();
        loop {
            match next_line(&mut reader, max).expect("a slice reads") {
                Line::Text(line) => out.push(String::from_utf8_lossy(&line).into_owned()),
                Line::TooLong(start) => {
                    out.push(format!(
                        "too long: {} of {}",
                        String::from_utf8_lossy(&start.head),
                        start.len
                    ));
                    return out;
                }
                Line::End => return out,
                Line::Failed(why) => panic!("{why}"),
                Line::Exited => panic!("no process here"),
            }
        }
    }

    #[test]
    fn a_line_is_cut_as_soon_as_it_passes_the_limit() {
        assert_eq!(lines(b"ab\n\ncdef\nlast", 4), ["ab", "", "cdef", "last"]);
        assert_eq!(
            lines(b"abcd\nabcde\nnever", 4),
            ["abcd", "too long: abcde of 5"]
        );
        assert_eq!(lines(b"", 4), Vec::<String>::new());
        assert_eq!(lines(b"abcdefgh", 4), ["too long: abcdef of 6"]);
    }
}
