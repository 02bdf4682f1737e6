//! A process's output streams: stdout cut into lines as its bytes are
//! read (a line past [`LINE_MAX`] dropped as it is read, never held whole),
//! and stderr kept as its last [`STDERR_TAIL`] lines, on a thread of its
//! own. It neither reads stdout nor parses what it cuts:
//! [`super::Process::receive`] does both.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read};
use std::process::ChildStderr;
use std::sync::Mutex;

use super::{KEPT_MAX, Offending};

/// The last this many lines of stderr are shown with a problem.
pub const STDERR_TAIL: usize = 20;
/// Longer stderr lines are cut to this many bytes.
const STDERR_LINE_MAX: usize = 1000;
/// A stdout line longer than this is a protocol violation, not an answer.
pub const LINE_MAX: usize = 256 * 1024 * 1024;

/// What stdout came to, line by line.
pub(super) enum StdoutLine {
    /// A line, without its `\n`.
    Text(Vec<u8>),
    /// A line longer than the limit: its first bytes. Nothing after it is
    /// taken.
    TooLong(Offending),
    /// stdout closed.
    End,
    /// stdout could not be read.
    Failed(String),
}

/// stdout's bytes, cut into lines as they come: the whole lines not yet
/// taken, and the line being read.
pub(super) struct StdoutLines {
    /// Whole lines, in order.
    ready: VecDeque<StdoutLine>,
    /// The line being read, never longer than `max`.
    partial: Vec<u8>,
    max: usize,
    /// A line passed `max`, or stdout closed: nothing more is taken.
    done: bool,
}

impl StdoutLines {
    pub(super) fn new(max: usize) -> StdoutLines {
        StdoutLines {
            ready: VecDeque::new(),
            partial: Vec::new(),
            max,
            done: false,
        }
    }

    /// The next line, if one is whole (or the end, once it is reached).
    pub(super) fn next(&mut self) -> Option<StdoutLine> {
        self.ready.pop_front()
    }

    /// Whether more bytes are wanted: no line is waiting and the end is not
    /// reached.
    pub(super) fn wants_more(&self) -> bool {
        self.ready.is_empty() && !self.done
    }

    /// Takes bytes just read. A line that would pass `max` is cut there:
    /// its first bytes and its length so far are kept, the rest dropped.
    pub(super) fn take(&mut self, mut bytes: &[u8]) {
        while !self.done && !bytes.is_empty() {
            let (take, ended) = match memchr::memchr(b'\n', bytes) {
                Some(at) => (at, true),
                None => (bytes.len(), false),
            };
            if self.partial.len() + take > self.max {
                // Only the first bytes are kept, and the count read so far.
                let mut start = Offending::of(&self.partial);
                let more = KEPT_MAX.saturating_sub(start.head.len()).min(take);
                start.head.extend_from_slice(&bytes[..more]);
                start.len += take;
                self.partial = Vec::new();
                self.ready.push_back(StdoutLine::TooLong(start));
                self.done = true;
                return;
            }
            grow(&mut self.partial, take, self.max);
            self.partial.extend_from_slice(&bytes[..take]);
            if ended {
                self.ready
                    .push_back(StdoutLine::Text(std::mem::take(&mut self.partial)));
            }
            bytes = &bytes[take + usize::from(ended)..];
        }
    }

    /// stdout closed: the last line, if it lacks its `\n`, then the end.
    pub(super) fn close(&mut self) {
        if self.done {
            return;
        }
        if !self.partial.is_empty() {
            self.ready
                .push_back(StdoutLine::Text(std::mem::take(&mut self.partial)));
        }
        self.ready.push_back(StdoutLine::End);
        self.done = true;
    }

    /// stdout could not be read: nothing more is taken.
    pub(super) fn fail(&mut self, why: String) {
        if !self.done {
            self.ready.push_back(StdoutLine::Failed(why));
            self.done = true;
        }
    }
}

/// Room for `add` more bytes in `line`, doubling but never past `max`: a
/// line at the limit takes `max` bytes of memory, not twice that.
fn grow(line: &mut Vec<u8>, add: usize, max: usize) {
    if line.capacity() - line.len() < add {
        let want = (line.capacity() * 2).max(line.len() + add).min(max);
        line.reserve_exact(want - line.len());
    }
}

pub(super) fn collect_stderr(stderr: ChildStderr, tail: &Mutex<VecDeque<String>>) {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// `text` fed three bytes at a time, then closed.
    fn lines(text: &[u8], max: usize) -> Vec<String> {
        let mut lines = StdoutLines::new(max);
        let mut out = Vec::new();
        let mut chunks = text.chunks(3);
        loop {
            match lines.next() {
                Some(StdoutLine::Text(line)) => {
                    out.push(String::from_utf8_lossy(&line).into_owned())
                }
                Some(StdoutLine::TooLong(start)) => {
                    out.push(format!(
                        "too long: {} of {}",
                        String::from_utf8_lossy(&start.head),
                        start.len
                    ));
                    return out;
                }
                Some(StdoutLine::End) => return out,
                Some(StdoutLine::Failed(why)) => panic!("{why}"),
                None => match chunks.next() {
                    Some(chunk) => lines.take(chunk),
                    None => lines.close(),
                },
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

    #[test]
    fn a_line_at_the_limit_takes_the_limit_of_memory() {
        let mut lines = StdoutLines::new(1000);
        for _ in 0..333 {
            lines.take(b"xxx");
        }
        assert!(lines.partial.capacity() <= 1000);
        lines.take(b"x\n");
        assert!(matches!(lines.next(), Some(StdoutLine::Text(line)) if line.len() == 1000));
    }
}
